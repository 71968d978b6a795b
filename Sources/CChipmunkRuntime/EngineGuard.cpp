// Two of the engine's functions, replaced by the binding's own through ELF symbol
// interposition: libchipmunk.so.7 calls `cpCollide` and `cpMessage` through its PLT (both
// are exported, and Debian's build is not linked -Bsymbolic), so a definition in the
// program binds first. Each wrapper calls the library's own function (dlsym RTLD_NEXT);
// no engine code is copied.
//
// `cpCollide`: the narrow phase of one pair of shapes. Debian's 7.0.3 is a debug build, and
// its EPA aborts the program ("Internal Error: EPA vertexes are the same") on pairs whose
// Minkowski difference is nearly degenerate: two nearly aligned boxes that overlap a little
// reach it with ordinary values (shared/ENGINE.md; Fuzz/open-findings). The narrow phase is
// a pure function of the two shapes (it writes only the contact buffer it is given), so
// leaving it early is safe: when the engine reports an error inside it, `cpMessage` throws
// a C++ exception, which unwinds through the engine's frames (Debian's build has unwind
// tables for every function, .eh_frame; C frames have nothing to clean up) to the
// wrapper's `catch`. A `try` costs nothing until something throws, so the narrow phase's
// path gains only a call and a thread-local counter (a return point marked with
// `sigsetjmp` on every call cost 1.4 % more instructions on the pyramid20 benchmark). The
// wrapper then tries again without the cached feature pair, then with the shapes swapped
// (the space accepts either order, as it does every step for shapes of one type), and
// otherwise answers "no contact" for this step. Every pair the engine finishes is the
// engine's own answer, bit for bit.
//
// `cpMessage`: the engine's report before an abort, and its warnings. Errors are printed by
// the library's own function (the engine aborts after it, as before). Warnings ("You
// created a 0 length pin joint", "High EPA iterations") are counted and kept, not printed:
// the binding's errors are one line. CHIPMUNK_WARNINGS=1 prints them as the engine does.
#include "CChipmunkRuntime.h"

extern "C" {
#include <chipmunk/chipmunk_private.h>
}
#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace {

using CollideFunction = cpCollisionInfo (*)(const cpShape *, const cpShape *, cpCollisionID, cpContact *);
using MessageFunction = void (*)(const char *, const char *, int, int, int, const char *, ...);

// The library's own functions, found once (the narrow phase reads its pointer on every
// call: a relaxed atomic load, an ordinary load on x86-64 and arm64).
std::atomic<CollideFunction> engineCollide{nullptr};
MessageFunction engineMessage = nullptr;
bool printWarnings = false;
pthread_once_t resolved = PTHREAD_ONCE_INIT;

void resolve() {
    engineMessage = reinterpret_cast<MessageFunction>(dlsym(RTLD_NEXT, "cpMessage"));
    const char *setting = getenv("CHIPMUNK_WARNINGS");
    printWarnings = setting != nullptr && setting[0] != '\0' && setting[0] != '0';
    engineCollide.store(reinterpret_cast<CollideFunction>(dlsym(RTLD_NEXT, "cpCollide")), std::memory_order_release);
}

CollideFunction collideFunction() {
    CollideFunction function = engineCollide.load(std::memory_order_relaxed);
    if (function != nullptr) return function;
    pthread_once(&resolved, resolve);
    return engineCollide.load(std::memory_order_acquire);
}

// Per thread, in the program's static TLS block (initial-exec: one access, no call).
#define THREAD_LOCAL thread_local __attribute__((tls_model("initial-exec")))

// How deep this thread is in guarded narrow-phase tests (0 or 1), and what was seen.
THREAD_LOCAL int narrowPhase;
THREAD_LOCAL uint64_t degenerateCollisions;
THREAD_LOCAL uint64_t warnings;
THREAD_LOCAL char lastWarning[256];

// What `cpMessage` throws inside a narrow-phase test.
struct EngineStop {};

// One attempt at the engine's narrow phase: true with `info` set, or false if it stopped.
bool attempt(CollideFunction collide, const cpShape *a, const cpShape *b, cpCollisionID id, cpContact *contacts,
    cpCollisionInfo &info) {
    try {
        info = collide(a, b, id, contacts);
        return true;
    } catch (const EngineStop &) {
        return false;
    }
}

}  // namespace

extern "C" void cpMessage(
    const char *condition, const char *file, int line, int isError, int isHardError, const char *message, ...) {
    if (isError && narrowPhase > 0) throw EngineStop{};
    pthread_once(&resolved, resolve);
    char text[sizeof lastWarning];
    va_list arguments;
    va_start(arguments, message);
    vsnprintf(text, sizeof text, message, arguments);
    va_end(arguments);
    if (!isError) {
        warnings += 1;
        snprintf(lastWarning, sizeof lastWarning, "%s", text);
        if (!printWarnings) return;
    }
    if (engineMessage != nullptr) {
        engineMessage(condition, file, line, isError, isHardError, "%s", text);
    } else {
        fprintf(stderr, "%s%s\n\tFailed condition: %s\n\tSource:%s:%d\n",
            isError ? "Aborting due to Chipmunk error: " : "Chipmunk warning: ", text, condition, file, line);
    }
}

extern "C" cpCollisionInfo cpCollide(const cpShape *a, const cpShape *b, cpCollisionID id, cpContact *contacts) {
    CollideFunction collide = collideFunction();
    // Circles with circles or segments are closed formulas; only pairs that go through
    // GJK and EPA (a polygon, or two segments) can stop.
    if (a->klass->type + b->klass->type < CP_SEGMENT_SHAPE + CP_SEGMENT_SHAPE) return collide(a, b, id, contacts);
    narrowPhase += 1;
    try {
        // The engine's answer goes straight into the caller's result.
        cpCollisionInfo info = collide(a, b, id, contacts);
        narrowPhase -= 1;
        return info;
    } catch (const EngineStop &) {
    }
    degenerateCollisions += 1;
    cpCollisionInfo info;
    bool done = attempt(collide, a, b, 0, contacts, info);
    if (!done && attempt(collide, b, a, 0, contacts, info)) {
        // The cached feature pair names vertices in this call's order: start afresh next step.
        info.id = 0;
        done = true;
    }
    narrowPhase -= 1;
    if (!done) info = cpCollisionInfo{a, b, 0, cpvzero, 0, contacts};
    return info;
}

extern "C" int ChipmunkEngineGuardIsActive(void) {
    // The addresses the dynamic linker gives every object for these names: ours when
    // interposition holds.
    return dlsym(RTLD_DEFAULT, "cpCollide") == reinterpret_cast<void *>(cpCollide)
        && dlsym(RTLD_DEFAULT, "cpMessage") == reinterpret_cast<void *>(cpMessage);
}

extern "C" uint64_t ChipmunkEngineGuardDegenerateCollisions(void) { return degenerateCollisions; }
extern "C" uint64_t ChipmunkEngineGuardWarnings(void) { return warnings; }
extern "C" const char *ChipmunkEngineGuardLastWarning(void) { return lastWarning; }
