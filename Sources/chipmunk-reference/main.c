// The book's scenes written against the raw Chipmunk C API: the reference that the
// Swift binding must match bit for bit. Output has the columns of `chipmunk-sim run`
// (step,body,x,y,angle,vx,vy,w) with every double printed as %.17g, which round-trips.
//
// usage: chipmunk-reference crate|crates|crates-tilt STEPS [EVERY]
#include <chipmunk/chipmunk.h>
#include "shim.h"  // CChipmunkSpaceNewQuietly: the one place the debug banner is silenced
#include <fcntl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cpFloat DT = 1.0 / 120.0;
static const cpFloat VIEW_HEIGHT = 300.0;

// The crate recipe of listing 11.4 in Chipmunk 7 terms.
static void addCrate(cpSpace *space, cpFloat x, cpFloat y, cpFloat w, cpFloat h) {
    cpFloat mass = 100.0;
    cpBody *body = cpBodyNew(mass, cpMomentForBox(mass, w, h));
    cpBodySetPosition(body, cpv(x + w / 2, VIEW_HEIGHT - y - h / 2));
    cpSpaceAddBody(space, body);
    cpVect corners[4] = {cpv(0, 0), cpv(0, h), cpv(w, h), cpv(w, 0)};
    cpShape *shape = cpPolyShapeNew(body, 4, corners, cpTransformTranslate(cpv(-w / 2, -h / 2)), 0.0);
    cpShapeSetFriction(shape, 0.5);
    cpShapeSetElasticity(shape, 0.8);
    cpSpaceAddShape(space, shape);
}

static cpSpace *makeCrates(void) {
    cpSpace *space = cpSpaceNew();
    cpSpaceSetGravity(space, cpv(0, -1000));
    cpVect corners[4] = {cpv(0, 0), cpv(300, 0), cpv(300, 300), cpv(0, 300)};
    for (int i = 0; i < 4; i++) {
        cpShape *wall = cpSegmentShapeNew(cpSpaceGetStaticBody(space), corners[i], corners[(i + 1) % 4], 1.0);
        cpShapeSetCollisionType(wall, 2);
        cpShapeSetFriction(wall, 0.5);
        cpShapeSetElasticity(wall, 0.8);
        cpSpaceAddShape(space, wall);
    }
    const cpFloat frames[5][4] = {{0, 0, 32, 32}, {32, 0, 32, 32}, {64, 0, 64, 64}, {128, 0, 32, 32}, {0, 32, 64, 64}};
    for (int i = 0; i < 5; i++) addCrate(space, frames[i][0], frames[i][1], frames[i][2], frames[i][3]);
    return space;
}

static void printBody(cpBody *body, void *data) {
    int *counters = data;  // [step, body index]
    if (cpBodyGetType(body) != CP_BODY_TYPE_DYNAMIC) return;
    cpVect p = cpBodyGetPosition(body), v = cpBodyGetVelocity(body);
    printf("%d,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", counters[0], counters[1]++,
           p.x, p.y, cpBodyGetAngle(body), v.x, v.y, cpBodyGetAngularVelocity(body));
}

static cpShape *shapes[64];
static cpBody *bodies[64];
static int shapeCount = 0, bodyCount = 0;
static void collectShape(cpShape *shape, void *unused) { (void)unused; if (shapeCount < 64) shapes[shapeCount++] = shape; }
static void collectBody(cpBody *body, void *unused) { (void)unused; if (bodyCount < 64) bodies[bodyCount++] = body; }

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: chipmunk-reference crate|crates|crates-tilt STEPS [EVERY]\n");
        return 64;
    }
    int steps = atoi(argv[2]), every = argc > 3 ? atoi(argv[3]) : 1;
    if (steps < 1 || every < 1) {
        fprintf(stderr, "chipmunk-reference: STEPS and EVERY must be at least 1\n");
        return 64;
    }
    cpSpaceFree(CChipmunkSpaceNewQuietly());
    cpSpace *space;
    int tilt = 0;
    if (strcmp(argv[1], "crate") == 0) {
        space = cpSpaceNew();
        cpSpaceSetGravity(space, cpv(0, -1000));
        addCrate(space, 100, 0, 100, 100);
    } else if (strcmp(argv[1], "crates") == 0) {
        space = makeCrates();
    } else if (strcmp(argv[1], "crates-tilt") == 0) {
        space = makeCrates();
        tilt = 1;
    } else {
        fprintf(stderr, "chipmunk-reference: unknown scene '%s'\n", argv[1]);
        return 64;
    }
    // crates-tilt: the accelerometer handler's gravity (ay*1000, -ax*1000) at 2, 4, 6, 8 s.
    const cpFloat tiltTimes[4] = {2, 4, 6, 8};
    const cpVect tiltGravity[4] = {cpv(0.5 * 1000, -0.5 * 1000), cpv(-0.5 * 1000, -0.5 * 1000), cpv(0 * 1000, 1 * 1000), cpv(0 * 1000, -1 * 1000)};
    int nextTilt = 0;
    cpFloat time = 0;

    printf("step,body,x,y,angle,vx,vy,w\n");
    for (int step = 1; step <= steps; step++) {
        while (tilt && nextTilt < 4 && tiltTimes[nextTilt] <= time + DT * 1e-9) {
            cpSpaceSetGravity(space, tiltGravity[nextTilt++]);
        }
        cpSpaceStep(space, DT);
        time += DT;
        if (step % every == 0 || step == steps) {
            int counters[2] = {step, 0};
            // cpSpaceEachBody visits bodies in the order they were added (none sleep here).
            cpSpaceEachBody(space, printBody, counters);
        }
    }
    // Free everything, so that LeakSanitizer (scripts/sanitize.sh) sees no leak.
    cpSpaceEachShape(space, collectShape, NULL);
    cpSpaceEachBody(space, collectBody, NULL);
    for (int i = 0; i < shapeCount; i++) { cpSpaceRemoveShape(space, shapes[i]); cpShapeFree(shapes[i]); }
    for (int i = 0; i < bodyCount; i++) { cpSpaceRemoveBody(space, bodies[i]); cpBodyFree(bodies[i]); }
    cpSpaceFree(space);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "chipmunk-reference: cannot write standard output: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
