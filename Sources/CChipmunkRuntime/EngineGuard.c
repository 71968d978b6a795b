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
// leaving it early is safe: the wrapper marks a return point, and `cpMessage` jumps back to
// it when the engine reports an error inside it. The wrapper then tries again without the
// cached feature pair, then with the shapes swapped (the space accepts either order, as it
// does every step for shapes of one type), and otherwise answers "no contact" for this
// step. Every pair the engine finishes is the engine's own answer, bit for bit.
//
// `cpMessage`: the engine's report before an abort, and its warnings. Errors are printed by
// the library's own function (the engine aborts after it, as before). Warnings ("You
// created a 0 length pin joint", "High EPA iterations") are counted and kept, not printed:
// the binding's errors are one line. CHIPMUNK_WARNINGS=1 prints them as the engine does.
#define _GNU_SOURCE
#include "CChipmunkRuntime.h"

#include <chipmunk/chipmunk_private.h>
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct cpCollisionInfo (*CollideFunction)(const cpShape *, const cpShape *, cpCollisionID, struct cpContact *);
typedef void (*MessageFunction)(const char *, const char *, int, int, int, const char *, ...);
typedef void (*VMessageFunction)(const char *, const char *, int, int, int, const char *, va_list);

// The library's own functions, found once (the narrow phase reads its pointer on every
// call: a relaxed atomic load, an ordinary load on x86-64 and arm64).
static _Atomic(CollideFunction) engineCollide;
static MessageFunction engineMessage;
static int printWarnings;
static pthread_once_t resolved = PTHREAD_ONCE_INIT;

static void resolve(void) {
    engineMessage = (MessageFunction)dlsym(RTLD_NEXT, "cpMessage");
    const char *setting = getenv("CHIPMUNK_WARNINGS");
    printWarnings = setting != NULL && setting[0] != '\0' && setting[0] != '0';
    atomic_store_explicit(&engineCollide, (CollideFunction)dlsym(RTLD_NEXT, "cpCollide"), memory_order_release);
}

static CollideFunction collideFunction(void) {
    CollideFunction function = atomic_load_explicit(&engineCollide, memory_order_relaxed);
    if (function != NULL) return function;
    pthread_once(&resolved, resolve);
    return atomic_load_explicit(&engineCollide, memory_order_acquire);
}

// Per thread, in the program's static TLS block (initial-exec: one load, no call).
#define THREAD_LOCAL static _Thread_local __attribute__((tls_model("initial-exec")))

// The return point of the narrow-phase test running on this thread, if any.
THREAD_LOCAL sigjmp_buf *collisionEscape;
THREAD_LOCAL uint64_t degenerateCollisions;
THREAD_LOCAL uint64_t warnings;
THREAD_LOCAL char lastWarning[256];

void cpMessage(const char *condition, const char *file, int line, int isError, int isHardError, const char *message,
    ...) {
    if (isError && collisionEscape != NULL) siglongjmp(*collisionEscape, 1);
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
    if (engineMessage != NULL) {
        engineMessage(condition, file, line, isError, isHardError, "%s", text);
    } else {
        fprintf(stderr, "%s%s\n\tFailed condition: %s\n\tSource:%s:%d\n",
            isError ? "Aborting due to Chipmunk error: " : "Chipmunk warning: ", text, condition, file, line);
    }
}

struct cpCollisionInfo cpCollide(const cpShape *a, const cpShape *b, cpCollisionID id, struct cpContact *contacts) {
    CollideFunction engineCollide = collideFunction();
    // Circles with circles or segments are closed formulas; only pairs that go through
    // GJK and EPA (a polygon, or two segments) can stop.
    if (a->klass->type + b->klass->type < CP_SEGMENT_SHAPE + CP_SEGMENT_SHAPE) return engineCollide(a, b, id, contacts);
    sigjmp_buf escape;
    sigjmp_buf *outer = collisionEscape;
    collisionEscape = &escape;
    // sigsetjmp(…, 0) saves no signal mask: no system call on the narrow phase's path.
    if (sigsetjmp(escape, 0) == 0) {
        struct cpCollisionInfo info = engineCollide(a, b, id, contacts);
        collisionEscape = outer;
        return info;
    }
    degenerateCollisions += 1;
    if (sigsetjmp(escape, 0) == 0) {
        struct cpCollisionInfo info = engineCollide(a, b, 0, contacts);
        collisionEscape = outer;
        return info;
    }
    if (sigsetjmp(escape, 0) == 0) {
        struct cpCollisionInfo info = engineCollide(b, a, 0, contacts);
        collisionEscape = outer;
        // The cached feature pair names vertices in this call's order: start afresh next step.
        info.id = 0;
        return info;
    }
    collisionEscape = outer;
    return (struct cpCollisionInfo){a, b, 0, cpvzero, 0, contacts};
}

int ChipmunkEngineGuardIsActive(void) {
    // The addresses the dynamic linker gives every object for these names: ours when
    // interposition holds.
    return dlsym(RTLD_DEFAULT, "cpCollide") == (void *)cpCollide
        && dlsym(RTLD_DEFAULT, "cpMessage") == (void *)cpMessage;
}

uint64_t ChipmunkEngineGuardDegenerateCollisions(void) { return degenerateCollisions; }
uint64_t ChipmunkEngineGuardWarnings(void) { return warnings; }
const char *ChipmunkEngineGuardLastWarning(void) { return lastWarning; }
