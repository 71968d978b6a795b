// Some of the engine's functions, replaced by the binding's own through ELF symbol
// interposition: libchipmunk.so.7 calls `cpCollide`, `cpMessage` and `cpArrayPush`
// through its PLT and takes the address of `cpSpaceCollideShapes` through its GOT (all are
// exported, and Debian's build is not linked -Bsymbolic), so a definition in the program
// binds first. Each wrapper calls the library's own function (dlsym RTLD_NEXT);
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
// The contact pair budget: `CChipmunkSpaceStepWithinBudget` runs a step with a bound on
// the engine's pools (broad-phase pairs and nodes, arbiters, contact buffers), which only
// grow. Past it, a C++ exception unwinds out of the step through the engine's C frames only
// (no binding code is on the stack at either point) before a pile claims the memory, from
// one of two points where the engine's structures are whole:
// - `cpArrayPush` given the tree's buffer array while the space is locked: the tree's pool
//   of pairs is empty and it has just allocated a buffer of them (`PairFromPool`, inside
//   the marking pass, before the pair is linked; the locked part of a step makes no tree
//   nodes, since a leaf that moves frees the node it takes). A pile's tree can pair every
//   leaf with every other before it calls the space once (5,000 circles meeting made 12.5
//   million pairs, 700 MB), inside code that cannot be interposed; its pairs all come from
//   this pool, so a buffer past the budget's pairs is freed there and the step stops. The
//   cost when nothing is piled is a compare a push;
// - `cpSpaceCollideShapes`, the space's callback for each candidate pair (the engine
//   takes its address through the GOT): every pair before it is linked, no arbiter half
//   made; it bounds the arbiters and contacts, and the spatial hash.
//
// `cpMessage`: the engine's report before an abort, and its warnings. Errors are printed by
// the library's own function (the engine aborts after it, as before). Warnings ("You
// created a 0 length pin joint", "High EPA iterations") are counted and kept, not printed:
// the binding's errors are one line. CHIPMUNK_WARNINGS=1 prints them as the engine does.
#include "CChipmunkRuntime.h"

extern "C" {
#include <chipmunk/chipmunk_private.h>
#include <chipmunk/cpHastySpace.h>
#include "BroadPhaseMirror.h"
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
using SpaceCollideFunction = cpCollisionID (*)(cpShape *, cpShape *, cpCollisionID, cpSpace *);
using ArrayPushFunction = void (*)(cpArray *, void *);

// The library's own functions, found once (the narrow phase reads its pointer on every
// call: a relaxed atomic load, an ordinary load on x86-64 and arm64).
std::atomic<CollideFunction> engineCollide{nullptr};
std::atomic<SpaceCollideFunction> engineSpaceCollide{nullptr};
std::atomic<ArrayPushFunction> engineArrayPush{nullptr};
MessageFunction engineMessage = nullptr;
bool printWarnings = false;
pthread_once_t resolvedOnce = PTHREAD_ONCE_INIT;

// The library's own definition of `name`; a program whose engine library lacks it cannot
// run a step, and says so (rather than calling through a null pointer).
void *engineFunction(const char *name) {
    void *function = dlsym(RTLD_NEXT, name);
    if (function == nullptr) {
        const char *error = dlerror();
        fprintf(stderr, "SwiftChipmunk: the engine library has no %s (%s); is libchipmunk.so.7 (7.0.3) loaded?\n",
            name, error != nullptr ? error : "not found");
        abort();
    }
    return function;
}

void resolve() {
    // cpMessage is only printed through; the binding's own text stands in when it is missing.
    engineMessage = reinterpret_cast<MessageFunction>(dlsym(RTLD_NEXT, "cpMessage"));
    const char *setting = getenv("CHIPMUNK_WARNINGS");
    printWarnings = setting != nullptr && setting[0] != '\0' && setting[0] != '0';
    engineCollide.store(reinterpret_cast<CollideFunction>(engineFunction("cpCollide")), std::memory_order_release);
    engineSpaceCollide.store(
        reinterpret_cast<SpaceCollideFunction>(engineFunction("cpSpaceCollideShapes")), std::memory_order_release);
    engineArrayPush.store(
        reinterpret_cast<ArrayPushFunction>(engineFunction("cpArrayPush")), std::memory_order_release);
}

// The library's own `function`, resolved on first use.
template <typename Function> Function resolved(std::atomic<Function> &function) {
    Function value = function.load(std::memory_order_relaxed);
    if (value != nullptr) return value;
    pthread_once(&resolvedOnce, resolve);
    return function.load(std::memory_order_acquire);
}

CollideFunction collideFunction() {
    CollideFunction function = engineCollide.load(std::memory_order_relaxed);
    if (function != nullptr) return function;
    pthread_once(&resolvedOnce, resolve);
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

// What the step running on this thread watches (all null and 0 between steps). A callback
// may step another space inside a step: each step keeps the watch it found and puts it
// back (a nested step cleared it, and the outer step then read a null space).
struct StepWatch {
    // The step's pool budget (a null space when none): the space, its tree and the tree's
    // buffer array (null for the spatial hash), and the most buffers the pools may hold.
    const cpSpace *budgetSpace;
    const MirrorTree *budgetTree;
    const cpArray *budgetTreeBuffers;
    int budgetBuffers;
    int64_t budgetPairs;
    // What the space's own pools may hold: the budget less the tree's buffers as the step began.
    int budgetSpaceBuffers;
    // The space's array of sleeping groups, and whether the step pushed a root onto it: a
    // group fell asleep (KeptContacts.c).
    const cpArray *sleepingComponents;
    int groupsFellAsleep;
    // The narrow-phase tests of this step the guard answered (`degenerateCollisions` counts
    // the thread's, a step taken inside this one's callbacks included).
    uint64_t guardedCollisions;
};
THREAD_LOCAL StepWatch watch;

// What the pair callback throws when the pools have passed the budget.
struct PoolBudgetExceeded {};

int poolBuffers() {
    return watch.budgetSpace->allocatedBuffers->num + (watch.budgetTreeBuffers != nullptr ? watch.budgetTreeBuffers->num : 0);
}

bool poolsOverBudget() { return poolBuffers() > watch.budgetBuffers; }

// Whether the budgeted tree, about to take one more buffer of pairs, would hold more
// buffers than its nodes and the budget's pairs fill. Its nodes are its leaves, the inner
// nodes joining them and its pool of free nodes (a walk of that list: this runs once a
// buffer of pairs, 585 of them, and only while the pairs grow past their peak).
bool treePairsPassBudget(const MirrorTree *tree, int buffers) {
    size_t leaves = tree->leaves->entries;
    size_t nodes = leaves > 0 ? 2 * leaves - 1 : 0;
    for (const MirrorNode *node = tree->pooledNodes; node != nullptr; node = node->parent) nodes += 1;
    size_t nodeBuffers = (nodes * sizeof(MirrorNode) + CP_BUFFER_BYTES - 1) / CP_BUFFER_BYTES;
    size_t pairsPerBuffer = CP_BUFFER_BYTES / sizeof(MirrorPair);
    uint64_t pairBuffers = (uint64_t(watch.budgetPairs) + pairsPerBuffer - 1) / pairsPerBuffer;
    return uint64_t(buffers) >= nodeBuffers + pairBuffers;
}

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
    pthread_once(&resolvedOnce, resolve);
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
    watch.guardedCollisions += 1;
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
        && dlsym(RTLD_DEFAULT, "cpMessage") == reinterpret_cast<void *>(cpMessage)
        && dlsym(RTLD_DEFAULT, "cpSpaceCollideShapes") == reinterpret_cast<void *>(cpSpaceCollideShapes)
        && dlsym(RTLD_DEFAULT, "cpArrayPush") == reinterpret_cast<void *>(cpArrayPush);
}

extern "C" uint64_t ChipmunkEngineGuardDegenerateCollisions(void) { return degenerateCollisions; }
extern "C" uint64_t ChipmunkEngineGuardWarnings(void) { return warnings; }
extern "C" const char *ChipmunkEngineGuardLastWarning(void) { return lastWarning; }

extern "C" cpCollisionID cpSpaceCollideShapes(cpShape *a, cpShape *b, cpCollisionID id, cpSpace *space) {
    // Called for every candidate pair, so only the space's own pools (arbiters, contacts)
    // are read here: the tree's pairs are counted as their buffers are made (cpArrayPush).
    if (space == watch.budgetSpace && space->allocatedBuffers->num > watch.budgetSpaceBuffers) [[unlikely]] {
        throw PoolBudgetExceeded{};
    }
    return resolved(engineSpaceCollide)(a, b, id, space);
}

extern "C" void cpArrayPush(cpArray *array, void *object) {
    if (array == watch.sleepingComponents) [[unlikely]] watch.groupsFellAsleep = 1;
    // A buffer of the budgeted tree's pairs, made in the marking pass: past the budget, it
    // is freed (the engine has linked nothing into it) and the step stops.
    if (array == watch.budgetTreeBuffers && watch.budgetSpace->locked > 0) [[unlikely]] {
        if (treePairsPassBudget(watch.budgetTree, array->num)) {
            free(object);
            throw PoolBudgetExceeded{};
        }
    }
    resolved(engineArrayPush)(array, object);
}

extern "C" size_t CChipmunkContactPairBytes(void) {
    // A cached pair in the tree, its arbiter, and its contacts in the ring of contact
    // buffers, which keeps the last collisionPersistence + 1 (by default 4) steps' contacts.
    return sizeof(MirrorPair) + sizeof(cpArbiter) + 4 * CP_MAX_CONTACTS_PER_ARBITER * sizeof(struct cpContact);
}

extern "C" size_t CChipmunkPoolBufferBytes(void) { return CP_BUFFER_BYTES; }

extern "C" size_t CChipmunkSpacePoolBytes(void *space) {
    cpSpace *s = static_cast<cpSpace *>(space);
    MirrorTree *tree = CChipmunkMirrorTree(s->dynamicShapes);
    size_t buffers = size_t(s->allocatedBuffers->num) + (tree != nullptr ? size_t(tree->allocatedBuffers->num) : 0);
    return buffers * CP_BUFFER_BYTES;
}

extern "C" int CChipmunkSpaceStepWithinBudget(void *space, double dt, int64_t maxPairs, int32_t maxBuffers,
    int *groupsFellAsleep, uint64_t *guardedCollisions) {
    cpSpace *s = static_cast<cpSpace *>(space);
    MirrorTree *tree = CChipmunkMirrorTree(s->dynamicShapes);
    const cpArray *treeBuffers = tree != nullptr ? tree->allocatedBuffers : nullptr;
    StepWatch outer = watch;
    watch = StepWatch{s, tree, treeBuffers, maxBuffers, maxPairs,
        maxBuffers - (treeBuffers != nullptr ? treeBuffers->num : 0), s->sleepingComponents, 0, 0};
    int result = 0;
    try {
        cpSpaceStep(s, dt);
        if (poolsOverBudget()) result = 1;
    } catch (const PoolBudgetExceeded &) {
        // Out of the broad phase, under the step's lock, which the step would have lifted.
        s->locked = 0;
        result = 2;
    }
    *groupsFellAsleep = watch.groupsFellAsleep;
    *guardedCollisions = watch.guardedCollisions;
    watch = outer;
    return result;
}

extern "C" void CChipmunkHastySpaceStep(void *space, double dt, int *groupsFellAsleep, uint64_t *guardedCollisions) {
    cpSpace *s = static_cast<cpSpace *>(space);
    StepWatch outer = watch;
    watch = StepWatch{};
    watch.sleepingComponents = s->sleepingComponents;
    cpHastySpaceStep(s, dt);
    *groupsFellAsleep = watch.groupsFellAsleep;
    *guardedCollisions = watch.guardedCollisions;
    watch = outer;
}
