// The benchmark worlds of `chipmunk-bench`, written against the raw Chipmunk C API: the
// same objects created in the same order, the same modes and the same hash as the Swift
// worlds in Sources/ChipmunkBench. Used by chipmunk-bench-c, and by
// `chipmunk-bench --against-c`, which steps a C world and a Swift world by turns.
#include "chipmunk_bench_worlds.h"
#include <chipmunk/chipmunk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void);

typedef enum { PLAIN, READS, CALLBACKS, CHURN } Mode;
static const char *modeNames[] = {"plain", "reads", "callbacks", "churn"};

typedef struct {
    cpSpace *space;
    cpBody **bodies;  // dynamic bodies in creation order
    int count, capacity;
} World;

static void push(World *w, cpBody *body) {
    if (w->count == w->capacity) {
        w->capacity = w->capacity ? w->capacity * 2 : 256;
        w->bodies = realloc(w->bodies, sizeof(cpBody *) * (size_t)w->capacity);
    }
    w->bodies[w->count++] = body;
}

static uint64_t splitmixState;
static uint64_t splitmix(void) {
    uint64_t z = (splitmixState += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double unit(void) { return (double)(splitmix() >> 11) * 0x1p-53; }

static void pyramid(World *w, int rows) {
    cpSpace *space = w->space;
    cpSpaceSetGravity(space, cpv(0, -10));
    cpSpaceSetIterations(space, 10);
    cpSpaceSetCollisionSlop(space, 0.01);
    double reach = rows + 10;
    cpShape *ground = cpSegmentShapeNew(cpSpaceGetStaticBody(space), cpv(-reach, 0), cpv(reach, 0), 0);
    cpShapeSetFriction(ground, 0.6);
    cpSpaceAddShape(space, ground);
    for (int row = 0; row < rows; row++) {
        int n = rows - row;
        for (int i = 0; i < n; i++) {
            cpBody *body = cpBodyNew(1, cpMomentForBox(1, 1, 1));
            cpBodySetPosition(body, cpv((double)i - (double)n / 2 + 0.5, 0.5 + (double)row));
            cpSpaceAddBody(space, body);
            cpShape *shape = cpBoxShapeNew(body, 1, 1, 0);
            cpShapeSetFriction(shape, 0.6);
            cpSpaceAddShape(space, shape);
            push(w, body);
        }
    }
}

static void circles(World *w) {
    cpSpace *space = w->space;
    cpSpaceSetGravity(space, cpv(0, -100));
    cpSpaceSetIterations(space, 10);
    cpSpaceSetCollisionSlop(space, 0.5);
    cpVect ends[3][2] = {{{-300, 1200}, {-300, 0}}, {{-300, 0}, {300, 0}}, {{300, 0}, {300, 1200}}};
    for (int i = 0; i < 3; i++) {
        cpShape *wall = cpSegmentShapeNew(cpSpaceGetStaticBody(space), ends[i][0], ends[i][1], 0);
        cpShapeSetFriction(wall, 0.9);
        cpSpaceAddShape(space, wall);
    }
    splitmixState = 42;
    for (int i = 0; i < 1000; i++) {
        double u = unit();
        double v = unit();
        cpBody *body = cpBodyNew(1, cpMomentForCircle(1, 0, 5, cpvzero));
        cpBodySetPosition(body, cpv(-290 + 580 * u, 20 + 1100 * v));
        cpSpaceAddBody(space, body);
        cpShape *shape = cpCircleShapeNew(body, 5, cpvzero);
        cpShapeSetFriction(shape, 0.9);
        cpShapeSetElasticity(shape, 0);
        cpSpaceAddShape(space, shape);
        push(w, body);
    }
}

static void jointGrid(World *w, int size) {
    cpSpace *space = w->space;
    cpSpaceSetGravity(space, cpv(0, -10));
    cpSpaceSetIterations(space, 10);
    for (int k = 0; k < size; k++) {
        for (int i = 0; i < size; i++) {
            double x = i, y = -(double)k;
            cpBody *body = cpBodyNew(1, cpMomentForCircle(1, 0, 0.4, cpvzero));
            cpBodySetPosition(body, cpv(x, y));
            cpSpaceAddBody(space, body);
            cpShape *shape = cpCircleShapeNew(body, 0.4, cpvzero);
            cpShapeSetFilter(shape, cpShapeFilterNew(1, CP_ALL_CATEGORIES, CP_ALL_CATEGORIES));
            cpSpaceAddShape(space, shape);
            if (k == 0 && i % 8 == 0) cpSpaceAddConstraint(space, cpPivotJointNew(body, cpSpaceGetStaticBody(space), cpv(x, 0)));
            if (i > 0) cpSpaceAddConstraint(space, cpPivotJointNew(body, w->bodies[w->count - 1], cpv(x - 0.5, y)));
            if (k > 0) cpSpaceAddConstraint(space, cpPivotJointNew(body, w->bodies[w->count - size], cpv(x, y + 0.5)));
            push(w, body);
        }
    }
}

// rows: the pyramid's rows, or 0 for the other worlds.
typedef struct { const char *name; double dt; int steps; double churnHeight; int rows; } Scene;
static const Scene scenes[] = {
    {"pyramid20", 1.0 / 120, 500, 25, 20}, {"pyramid40", 1.0 / 120, 500, 45, 40},
    {"pyramid100", 1.0 / 60, 200, 105, 100}, {"circles1000", 1.0 / 60, 500, 1250, 0},
    {"jointgrid50", 1.0 / 60, 200, 10, 0},
};

static void build(World *w, const Scene *s) {
    if (s->rows > 0) pyramid(w, s->rows);
    else if (strcmp(s->name, "circles1000") == 0) circles(w);
    else jointGrid(w, 50);
}

static void freeShape(cpShape *shape, void *data) { cpSpace *space = data; cpSpaceRemoveShape(space, shape); cpShapeFree(shape); }
static void freeConstraint(cpConstraint *c, void *data) { cpSpace *space = data; cpSpaceRemoveConstraint(space, c); cpConstraintFree(c); }
static void freeBody(cpBody *body, void *data) { cpSpace *space = data; cpSpaceRemoveBody(space, body); cpBodyFree(body); }
static void postShapeFree(cpSpace *space, void *shape, void *unused) { (void)unused; freeShape(shape, space); }
static void postConstraintFree(cpSpace *space, void *c, void *unused) { (void)unused; freeConstraint(c, space); }
static void postBodyFree(cpSpace *space, void *body, void *unused) { (void)unused; freeBody(body, space); }
static void shapeToPost(cpShape *shape, void *space) { cpSpaceAddPostStepCallback(space, postShapeFree, shape, NULL); }
static void constraintToPost(cpConstraint *c, void *space) { cpSpaceAddPostStepCallback(space, postConstraintFree, c, NULL); }
static void bodyToPost(cpBody *body, void *space) { cpSpaceAddPostStepCallback(space, postBodyFree, body, NULL); }

/// Frees every body, shape and constraint of a space, as the Chipmunk demos do
/// (ChipmunkDemoFreeSpaceChildren): queued as post-step callbacks while iterating.
static void ChipmunkBenchFreeSpaceChildren(cpSpace *space) {
    cpSpaceEachShape(space, shapeToPost, space);
    cpSpaceEachConstraint(space, constraintToPost, space);
    cpSpaceEachBody(space, bodyToPost, space);
}

struct BenchWorld {
    World world;
    Scene sceneValue;
    const Scene *scene;
    Mode mode;
    int step;              // steps taken so far (churn counts from here)
    cpBody *extraBodies[100];
    cpShape *extraShapes[100];
    int extras;
    long callbacks;
    double readSeconds, readSum;
};

static cpBool countAndAccept(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)arb; (void)space;
    ((BenchWorld *)data)->callbacks++;
    return cpTrue;
}


// The timed loop, kept out of line so that callgrind can count it alone
// (--toggle-collect=benchmark_loop); BenchRunner.benchmarkLoop is its Swift twin.
__attribute__((noinline)) static void benchmark_loop(BenchWorld *b, int steps) {
    World *w = &b->world;
    cpSpace *space = w->space;
    const Scene *scene = b->scene;
    if (b->mode == READS) {
        int count = w->count;
        double sum = 0;
        for (int s = 0; s < steps; s++) {
            cpSpaceStep(space, scene->dt);
            double readStart = now();
            for (int i = 0; i < count; i++) {
                cpVect p = cpBodyGetPosition(w->bodies[i]);
                sum += p.x + p.y + cpBodyGetAngle(w->bodies[i]);
            }
            b->readSeconds += now() - readStart;
        }
        b->readSum += sum;
    } else if (b->mode == CHURN) {
        for (int s = 0; s < steps; s++) {
            int step = ++b->step;
            if (step % 8 == 0) {
                if (b->extras == 0) {
                    for (int j = 0; j < 100; j++) {
                        cpBody *body = cpBodyNew(1, cpMomentForCircle(1, 0, 0.15, cpvzero));
                        cpBodySetPosition(body, cpv(-20 + 0.4 * j, scene->churnHeight));
                        cpSpaceAddBody(space, body);
                        cpShape *shape = cpCircleShapeNew(body, 0.15, cpvzero);
                        cpShapeSetFriction(shape, 0.6);
                        cpSpaceAddShape(space, shape);
                        b->extraBodies[j] = body;
                        b->extraShapes[j] = shape;
                        push(w, body);
                    }
                    b->extras = 100;
                } else {
                    for (int j = 0; j < 100; j++) {
                        cpSpaceRemoveShape(space, b->extraShapes[j]);
                        cpSpaceRemoveBody(space, b->extraBodies[j]);
                        cpShapeFree(b->extraShapes[j]);
                        cpBodyFree(b->extraBodies[j]);
                    }
                    w->count -= 100;
                    b->extras = 0;
                }
            }
            cpSpaceStep(space, scene->dt);
        }
        return;
    } else {
        for (int s = 0; s < steps; s++) cpSpaceStep(space, scene->dt);
    }
    b->step += steps;
}

static uint64_t fnv(World *w) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (int i = 0; i < w->count; i++) {
        cpVect p = cpBodyGetPosition(w->bodies[i]);
        double values[3] = {p.x, p.y, cpBodyGetAngle(w->bodies[i])};
        for (int v = 0; v < 3; v++) {
            uint64_t bits;
            memcpy(&bits, &values[v], 8);
            for (int b = 0; b < 8; b++) {
                hash ^= (bits >> (8 * b)) & 0xFF;
                hash *= 0x100000001b3ull;
            }
        }
    }
    return hash;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}


/// A standard world by name, or "growthN": a pyramid of N rows (1 to 200) stepped at
/// 1/60 s for 100 steps, for the growth table (BenchScene.growth in Swift).
static int findScene(const char *name, Scene *out) {
    for (size_t i = 0; i < sizeof scenes / sizeof *scenes; i++) {
        if (strcmp(name, scenes[i].name) == 0) { *out = scenes[i]; return 1; }
    }
    int rows = 0, end = 0;
    if (sscanf(name, "growth%d%n", &rows, &end) == 1 && name[end] == 0 && rows >= 1 && rows <= 200) {
        *out = (Scene){"growth", 1.0 / 60, 100, rows + 5, rows};
        return 1;
    }
    return 0;
}

int bench_world_default_steps(const char *scene) {
    Scene s;
    return findScene(scene, &s) ? s.steps : 0;
}

BenchWorld *bench_world_new(const char *scene, const char *mode) {
    Scene s;
    int m = -1;
    for (int i = 0; i < 4; i++) if (strcmp(mode, modeNames[i]) == 0) m = i;
    if (!findScene(scene, &s) || m < 0) return NULL;
    BenchWorld *b = calloc(1, sizeof(BenchWorld));
    b->sceneValue = s;
    b->scene = &b->sceneValue;
    b->mode = (Mode)m;
    b->world.space = cpSpaceNew();
    build(&b->world, b->scene);
    if (b->mode == CALLBACKS) {
        cpCollisionHandler *handler = cpSpaceAddDefaultCollisionHandler(b->world.space);
        handler->beginFunc = countAndAccept;
        handler->preSolveFunc = countAndAccept;
        handler->userData = b;
    }
    return b;
}

int bench_world_bodies(const BenchWorld *b) { return b->world.count; }

double bench_world_run(BenchWorld *b, int steps) {
    double start = now();
    benchmark_loop(b, steps);
    return now() - start;
}

uint64_t bench_world_hash(BenchWorld *b) { return fnv(&b->world); }
long bench_world_callbacks(const BenchWorld *b) { return b->callbacks; }
double bench_world_read_seconds(const BenchWorld *b) { return b->readSeconds; }
double bench_world_read_sum(const BenchWorld *b) { return b->readSum; }

void bench_world_free(BenchWorld *b) {
    // The C space frees its arrays; bodies and shapes are freed with it by the process
    // in the standalone tool, and here explicitly.
    cpSpace *space = b->world.space;
    for (int j = 0; j < b->extras; j++) {
        cpSpaceRemoveShape(space, b->extraShapes[j]);
        cpSpaceRemoveBody(space, b->extraBodies[j]);
        cpShapeFree(b->extraShapes[j]);
        cpBodyFree(b->extraBodies[j]);
    }
    ChipmunkBenchFreeSpaceChildren(space);
    cpSpaceFree(space);
    free(b->world.bodies);
    free(b);
}
