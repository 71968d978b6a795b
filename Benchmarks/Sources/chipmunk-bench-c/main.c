// The benchmark worlds against the raw C API, as a command: the same JSON line as
// `chipmunk-bench`. scripts/bench.sh and the tests run it beside the Swift binding.
//
// usage: chipmunk-bench-c SCENE [--steps N] [--mode plain|reads|callbacks|churn] [--repeat R] [--trace]
#define _GNU_SOURCE
#include <chipmunk/chipmunk.h>
// The main package's C bridge, for its one banner-silencing function.
#include "../../../Sources/CChipmunk/shim.h"
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "chipmunk_bench_worlds.h"

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: chipmunk-bench-c SCENE [--steps N] [--mode plain|reads|callbacks|churn] [--repeat R]\n");
        return 64;
    }
    const char *scene = argv[1], *mode = "plain";
    int steps = bench_world_default_steps(scene), repeat = 3, trace = 0;
    if (steps == 0) { fprintf(stderr, "chipmunk-bench-c: unknown scene '%s'\n", scene); return 64; }
    for (int i = 2; i < argc; i += 2) {
        // --trace: the state hash after every step, not a timing (plain mode, one world).
        if (strcmp(argv[i], "--trace") == 0) {
            trace = 1;
            i -= 1;
            continue;
        }
        if (i + 1 >= argc) { fprintf(stderr, "chipmunk-bench-c: %s needs a value\n", argv[i]); return 64; }
        if (strcmp(argv[i], "--steps") == 0) steps = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--repeat") == 0) repeat = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--mode") == 0) mode = argv[i + 1];
        else { fprintf(stderr, "chipmunk-bench-c: unknown option '%s'\n", argv[i]); return 64; }
    }
    if (steps < 1 || repeat < 1) { fprintf(stderr, "chipmunk-bench-c: --steps and --repeat must be at least 1\n"); return 64; }

    // Debian's debug build prints a banner on stdout from the first cpSpaceNew.
    cpSpaceFree(CChipmunkSpaceNewQuietly());

    if (trace) {
        BenchWorld *world = bench_world_new(scene, "plain");
        printf("{\"scene\":\"%s\",\"first_step\":1,\"step_hashes\":[", scene);
        for (int step = 1; step <= steps; step++) {
            bench_world_run(world, 1);
            printf("%s\"%016llx\"", step > 1 ? "," : "", (unsigned long long)bench_world_hash(world));
        }
        printf("]}\n");
        bench_world_free(world);
        return 0;
    }

    double *times = malloc(sizeof(double) * (size_t)repeat), *readTimes = malloc(sizeof(double) * (size_t)repeat);
    uint64_t hash = 0;
    int bodies = 0;
    double sum = 0;
    long calls = 0;
    for (int r = 0; r < repeat; r++) {
        BenchWorld *world = bench_world_new(scene, mode);
        if (!world) { fprintf(stderr, "chipmunk-bench-c: unknown mode '%s'\n", mode); return 64; }
        bodies = bench_world_bodies(world);
        times[r] = bench_world_run(world, steps);
        readTimes[r] = bench_world_read_seconds(world) * 1000 / steps;
        sum = bench_world_read_sum(world);
        calls = bench_world_callbacks(world);
        hash = bench_world_hash(world);
        bench_world_free(world);
    }
    qsort(times, (size_t)repeat, sizeof(double), compare);
    qsort(readTimes, (size_t)repeat, sizeof(double), compare);
    double median = (times[repeat / 2] + times[(repeat - 1) / 2]) / 2 * 1000 / steps;
    printf("{\"scene\":\"%s\",\"mode\":\"%s\",\"bodies\":%d,\"steps\":%d,\"ms_per_step\":%.17g,\"ms_per_step_min\":%.17g,"
           "\"hash\":\"%016llx\",\"threads\":1,\"parallel\":1,\"repeat\":%d",
           scene, mode, bodies, steps, median, times[0] * 1000 / steps, (unsigned long long)hash, repeat);
    if (strcmp(mode, "callbacks") == 0) printf(",\"callbacks_per_step\":%.17g", (double)calls / steps);
    if (strcmp(mode, "reads") == 0) printf(",\"read_ms_per_step\":%.17g,\"read_sum\":%.17g", readTimes[repeat / 2], sum);
    printf("}\n");
    free(times);
    free(readTimes);
    return 0;
}
