// A trajectory printer for scripts/cross-arch.sh: steps one raw-C world and prints, after
// every step, a hash of every dynamic body's state, and at the steps asked for, each
// body's state as %.17g (which round-trips). Built once per architecture against that
// architecture's libchipmunk, so that the two runs can be compared step by step.
//
// The benchmark worlds come from the Benchmarks package's own C file, included as it is
// (not copied), so that these are the worlds `chipmunk-bench-c` and the Swift twins step.
// `tumble` is the Chipmunk demo as the built-in scene and Scenes/tumble.json build it.
//
// usage: cross-arch-trajectory WORLD STEPS [CHECKPOINT,CHECKPOINT,...]
//   WORLD: pyramid20 pyramid40 pyramid100 circles1000 jointgrid50 (Benchmarks/) or tumble
// output, one line each:
//   h STEP HASH                  before the first step (step 0) and after every step: FNV-1a 64 over x, y, angle, vx, vy, w
//                                of every dynamic body in creation order (16 hex digits)
//   b STEP BODY x y angle vx vy w   at each checkpoint (0: the start), every dynamic body
//
// Build it with -ffp-contract=off on every architecture: the worlds' own set-up arithmetic
// (positions such as -290 + 580 * u) must not be fused either, so that both start from
// the same bits and every difference comes from the library.
#include "../../Benchmarks/Sources/ChipmunkBenchWorlds/bench_worlds.c"
#include "shim.h"  // CChipmunkSpaceNewQuietly, from Sources/CChipmunk
#include <errno.h>

typedef struct {
    cpSpace *space;
    cpBody **bodies;
    int count;
    double dt;
} Trajectory;

// Tumble.c as Demos.tumble(seed: 1) builds it: the pieces splitmix64 seed 1 picks, in the
// order Scenes/tumble.json lists them. 0.7f and 0.4f are single precision, as in the demo.
static const struct { char kind; double x, y; } tumblePieces[] = {
    {'s', -150, -150}, {'c', -150, -75}, {'c', -150, -105}, {'c', -150, -15}, {'c', -150, -45},
    {'s', -120, -150}, {'s', -120, -90}, {'c', -120, -15}, {'c', -120, -45}, {'c', -90, -135},
    {'c', -90, -165}, {'s', -90, -90}, {'b', -90, -30}, {'c', -60, -135}, {'c', -60, -165},
    {'s', -60, -90}, {'s', -60, -30}, {'s', -30, -150}, {'s', -30, -90}, {'s', -30, -30},
    {'b', 0, -150}, {'s', 0, -90}, {'c', 0, -15}, {'c', 0, -45}, {'c', 30, -135},
    {'c', 30, -165}, {'c', 30, -75}, {'c', 30, -105}, {'b', 30, -30},
};

static void makeTumble(Trajectory *t) {
    static cpBody *bodies[sizeof tumblePieces / sizeof *tumblePieces];
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -600));
    cpBody *box = cpSpaceAddBody(space, cpBodyNewKinematic());
    cpBodySetAngularVelocity(box, (double)0.4f);
    cpVect corners[4] = {cpv(-200, -200), cpv(-200, 200), cpv(200, 200), cpv(200, -200)};
    for (int i = 0; i < 4; i++) {
        cpShape *wall = cpSegmentShapeNew(box, corners[i], corners[(i + 1) % 4], 0);
        cpShapeSetFriction(wall, 1);
        cpShapeSetElasticity(wall, 1);
        cpShapeSetFilter(wall, cpShapeFilterNew(CP_NO_GROUP, 0x7fffffff, 0x7fffffff));
        cpSpaceAddShape(space, wall);
    }
    const double mass = 1, width = 30, height = 60;
    const float friction = 0.7f;
    int n = (int)(sizeof tumblePieces / sizeof *tumblePieces);
    for (int i = 0; i < n; i++) {
        char kind = tumblePieces[i].kind;
        cpVect pos = cpv(tumblePieces[i].x, tumblePieces[i].y);
        cpFloat moment = kind == 'c' ? cpMomentForCircle(mass, 0, width / 2, cpvzero)
                                     : cpMomentForBox(mass, width, height);
        cpBody *body = cpSpaceAddBody(space, cpBodyNew(mass, moment));
        cpBodySetPosition(body, pos);
        cpShape *shape;
        if (kind == 'b') shape = cpBoxShapeNew(body, width, height, 0);
        else if (kind == 's') shape = cpSegmentShapeNew(body, cpv(0, (height - width) / 2), cpv(0, (width - height) / 2), width / 2);
        else shape = cpCircleShapeNew(body, width / 2, cpvzero);
        cpShapeSetFriction(shape, friction);
        cpShapeSetElasticity(shape, 0);
        cpSpaceAddShape(space, shape);
        bodies[i] = body;
    }
    *t = (Trajectory){space, bodies, n, 1.0 / 180};
}

static int isCheckpoint(const char *list, int step) {
    for (const char *p = list; p && *p;) {
        char *end;
        long value = strtol(p, &end, 10);
        if (end == p) return 0;
        if (value == step) return 1;
        p = *end == ',' ? end + 1 : end;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: cross-arch-trajectory WORLD STEPS [CHECKPOINT,...]\n"
                        "  WORLD: pyramid20 pyramid40 pyramid100 circles1000 jointgrid50 tumble\n");
        return 64;
    }
    int steps = atoi(argv[2]);
    const char *checkpoints = argc > 3 ? argv[3] : "";
    if (steps < 1) { fprintf(stderr, "cross-arch-trajectory: STEPS must be at least 1\n"); return 64; }
    cpSpaceFree(CChipmunkSpaceNewQuietly());

    Trajectory t;
    BenchWorld *bench = NULL;
    if (strcmp(argv[1], "tumble") == 0) {
        makeTumble(&t);
    } else if (strncmp(argv[1], "growth", 6) != 0 && (bench = bench_world_new(argv[1], "plain")) != NULL) {
        t = (Trajectory){bench->world.space, bench->world.bodies, bench->world.count, bench->scene->dt};
    } else {
        fprintf(stderr, "cross-arch-trajectory: unknown world '%s'\n", argv[1]);
        return 64;
    }
    for (int step = 0; step <= steps; step++) {
        if (step > 0) cpSpaceStep(t.space, t.dt);
        uint64_t hash = 0xcbf29ce484222325ull;
        for (int i = 0; i < t.count; i++) {
            cpVect p = cpBodyGetPosition(t.bodies[i]), v = cpBodyGetVelocity(t.bodies[i]);
            double values[6] = {p.x, p.y, cpBodyGetAngle(t.bodies[i]), v.x, v.y, cpBodyGetAngularVelocity(t.bodies[i])};
            for (int k = 0; k < 6; k++) {
                uint64_t bits;
                memcpy(&bits, &values[k], 8);
                for (int b = 0; b < 8; b++) {
                    hash ^= (bits >> (8 * b)) & 0xFF;
                    hash *= 0x100000001b3ull;
                }
            }
        }
        printf("h %d %016llx\n", step, (unsigned long long)hash);
        if (isCheckpoint(checkpoints, step)) {
            for (int i = 0; i < t.count; i++) {
                cpVect p = cpBodyGetPosition(t.bodies[i]), v = cpBodyGetVelocity(t.bodies[i]);
                printf("b %d %d %.17g %.17g %.17g %.17g %.17g %.17g\n", step, i, p.x, p.y, cpBodyGetAngle(t.bodies[i]),
                       v.x, v.y, cpBodyGetAngularVelocity(t.bodies[i]));
            }
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "cross-arch-trajectory: cannot write standard output: %s\n", strerror(errno));
        return 1;
    }
    return 0;  // the process frees the world
}
