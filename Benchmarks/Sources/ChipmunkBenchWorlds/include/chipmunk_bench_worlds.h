// The benchmark worlds in raw C: see bench_worlds.c.
#ifndef CHIPMUNK_BENCH_WORLDS_H
#define CHIPMUNK_BENCH_WORLDS_H
#include <stdint.h>

typedef struct BenchWorld BenchWorld;

/// The steps a run of `scene` takes by default; 0 for an unknown scene.
int bench_world_default_steps(const char *scene);
/// Builds `scene` for `mode` (plain, reads, callbacks or churn); NULL if either is unknown.
BenchWorld *bench_world_new(const char *scene, const char *mode);
/// Dynamic bodies in the world now.
int bench_world_bodies(const BenchWorld *world);
/// Takes `steps` more steps; returns the seconds they took.
double bench_world_run(BenchWorld *world, int steps);
/// FNV-1a 64 over x, y and angle of every dynamic body, in creation order.
uint64_t bench_world_hash(BenchWorld *world);
/// Collision callbacks so far (callbacks mode).
long bench_world_callbacks(const BenchWorld *world);
/// Seconds spent reading bodies, and the sum read (reads mode).
double bench_world_read_seconds(const BenchWorld *world);
double bench_world_read_sum(const BenchWorld *world);
/// Frees the world and everything in it.
void bench_world_free(BenchWorld *world);

#endif
