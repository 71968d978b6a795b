// The benchmark worlds of `chipmunk-sim bench`, written against the raw Chipmunk C API:
// the same objects created in the same order, the same modes, the same JSON line and
// hash. scripts/bench.sh runs it beside the Swift binding; tests check the hashes agree.
//
// usage: chipmunk-bench-c SCENE [--steps N] [--mode plain|reads|callbacks|churn] [--repeat R]
#define _GNU_SOURCE
#include <chipmunk/chipmunk.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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

typedef struct { const char *name; double dt; int steps; double churnHeight; } Scene;
static const Scene scenes[] = {
    {"pyramid20", 1.0 / 120, 500, 25}, {"pyramid40", 1.0 / 120, 500, 45}, {"pyramid100", 1.0 / 60, 200, 105},
    {"circles1000", 1.0 / 60, 500, 1250}, {"jointgrid50", 1.0 / 60, 200, 10},
};

static void build(World *w, const char *name) {
    if (strcmp(name, "pyramid20") == 0) pyramid(w, 20);
    else if (strcmp(name, "pyramid40") == 0) pyramid(w, 40);
    else if (strcmp(name, "pyramid100") == 0) pyramid(w, 100);
    else if (strcmp(name, "circles1000") == 0) circles(w);
    else jointGrid(w, 50);
}

static long callbackCalls;
static cpBool countAndAccept(cpArbiter *arb, cpSpace *space, cpDataPointer data) {
    (void)arb; (void)space; (void)data;
    callbackCalls++;
    return cpTrue;
}

// The timed loop, kept out of line so that callgrind can count it alone
// (--toggle-collect=benchmark_loop); BenchRunner.benchmarkLoop is its Swift twin.
static double now(void);
static double readSeconds;

__attribute__((noinline)) static double benchmark_loop(World *w, const Scene *scene, Mode mode, int steps) {
    cpSpace *space = w->space;
    double sum = 0;
    readSeconds = 0;
    if (mode == READS) {
        int count = w->count;
        for (int s = 0; s < steps; s++) {
            cpSpaceStep(space, scene->dt);
            double readStart = now();
            for (int i = 0; i < count; i++) {
                cpVect p = cpBodyGetPosition(w->bodies[i]);
                sum += p.x + p.y + cpBodyGetAngle(w->bodies[i]);
            }
            readSeconds += now() - readStart;
        }
    } else if (mode == CHURN) {
        cpBody *extraBodies[100];
        cpShape *extraShapes[100];
        int extras = 0;
        for (int s = 1; s <= steps; s++) {
            if (s % 8 == 0) {
                if (extras == 0) {
                    for (int j = 0; j < 100; j++) {
                        cpBody *body = cpBodyNew(1, cpMomentForCircle(1, 0, 0.15, cpvzero));
                        cpBodySetPosition(body, cpv(-20 + 0.4 * j, scene->churnHeight));
                        cpSpaceAddBody(space, body);
                        cpShape *shape = cpCircleShapeNew(body, 0.15, cpvzero);
                        cpShapeSetFriction(shape, 0.6);
                        cpSpaceAddShape(space, shape);
                        extraBodies[j] = body;
                        extraShapes[j] = shape;
                        push(w, body);
                    }
                    extras = 100;
                } else {
                    for (int j = 0; j < 100; j++) {
                        cpSpaceRemoveShape(space, extraShapes[j]);
                        cpSpaceRemoveBody(space, extraBodies[j]);
                        cpShapeFree(extraShapes[j]);
                        cpBodyFree(extraBodies[j]);
                    }
                    w->count -= 100;
                    extras = 0;
                }
            }
            cpSpaceStep(space, scene->dt);
        }
    } else {
        for (int s = 0; s < steps; s++) cpSpaceStep(space, scene->dt);
    }
    return sum;
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

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void freeBody(cpBody *body, void *data) { (void)data; (void)body; }

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: chipmunk-bench-c SCENE [--steps N] [--mode plain|reads|callbacks|churn] [--repeat R]\n");
        return 64;
    }
    const Scene *scene = NULL;
    for (size_t i = 0; i < sizeof scenes / sizeof *scenes; i++) if (strcmp(argv[1], scenes[i].name) == 0) scene = &scenes[i];
    if (!scene) { fprintf(stderr, "chipmunk-bench-c: unknown scene '%s'\n", argv[1]); return 64; }
    int steps = scene->steps, repeat = 3;
    Mode mode = PLAIN;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--steps") == 0) steps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--repeat") == 0) repeat = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--mode") == 0) {
            int found = 0;
            for (int m = 0; m < 4; m++) if (strcmp(argv[i + 1], modeNames[m]) == 0) { mode = (Mode)m; found = 1; }
            if (!found) { fprintf(stderr, "chipmunk-bench-c: unknown mode '%s'\n", argv[i + 1]); return 64; }
        } else { fprintf(stderr, "chipmunk-bench-c: unknown option '%s'\n", argv[i]); return 64; }
    }
    if (steps < 1 || repeat < 1) { fprintf(stderr, "chipmunk-bench-c: --steps and --repeat must be at least 1\n"); return 64; }

    // Debian's debug build prints a banner on stdout from the first cpSpaceNew.
    fflush(stdout);
    int saved = dup(STDOUT_FILENO), devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDOUT_FILENO);
    cpSpaceFree(cpSpaceNew());
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    close(devnull);

    uint64_t (*allocCount)(void) = (uint64_t (*)(void))dlsym(RTLD_DEFAULT, "chipmunk_malloc_count");
    double *times = malloc(sizeof(double) * (size_t)repeat);
    double *readTimes = malloc(sizeof(double) * (size_t)repeat);
    uint64_t hash = 0, minAllocations = UINT64_MAX;
    int bodies = 0;
    double sum = 0;
    long calls = 0;
    for (int r = 0; r < repeat; r++) {
        World w = {cpSpaceNew(), NULL, 0, 0};
        build(&w, scene->name);
        bodies = w.count;
        callbackCalls = 0;
        if (mode == CALLBACKS) {
            cpCollisionHandler *handler = cpSpaceAddDefaultCollisionHandler(w.space);
            handler->beginFunc = countAndAccept;
            handler->preSolveFunc = countAndAccept;
        }
        uint64_t before = allocCount ? allocCount() : 0;
        double start = now();
        sum = benchmark_loop(&w, scene, mode, steps);
        times[r] = now() - start;
        readTimes[r] = readSeconds * 1000 / steps;
        if (allocCount && allocCount() - before < minAllocations) minAllocations = allocCount() - before;
        calls = callbackCalls;
        hash = fnv(&w);
        cpSpaceEachBody(w.space, freeBody, NULL);
        cpSpaceFree(w.space);  // bodies and shapes are left to the process's exit
        free(w.bodies);
    }
    qsort(times, (size_t)repeat, sizeof(double), compare);
    qsort(readTimes, (size_t)repeat, sizeof(double), compare);
    double median = (times[repeat / 2] + times[(repeat - 1) / 2]) / 2 * 1000 / steps;
    printf("{\"scene\":\"%s\",\"mode\":\"%s\",\"bodies\":%d,\"steps\":%d,\"ms_per_step\":%.17g,\"ms_per_step_min\":%.17g,"
           "\"hash\":\"%016llx\",\"threads\":1,\"parallel\":1,\"repeat\":%d",
           scene->name, modeNames[mode], bodies, steps, median, times[0] * 1000 / steps, (unsigned long long)hash, repeat);
    if (mode == CALLBACKS) printf(",\"callbacks_per_step\":%.17g", (double)calls / steps);
    if (mode == READS) printf(",\"read_ms_per_step\":%.17g,\"read_sum\":%.17g", readTimes[repeat / 2], sum);
    if (allocCount) printf(",\"allocations_per_step\":%.17g", (double)minAllocations / steps);
    printf("}\n");
    free(times);
    free(readTimes);
    return 0;
}
