// Counts heap allocations in a process, for scripts/bench.sh: built as a shared library
// and preloaded (LD_PRELOAD) into both the Swift and the C benchmark, which read the
// count through dlsym("chipmunk_malloc_count"). Thread-safe; forwards to the real
// allocator found with dlsym(RTLD_NEXT).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include "chipmunk_malloc_counter.h"

static _Atomic uint64_t allocations;

uint64_t chipmunk_malloc_count(void) { return allocations; }

typedef void *(*malloc_fn)(size_t);
typedef void *(*calloc_fn)(size_t, size_t);
typedef void *(*realloc_fn)(void *, size_t);

// dlsym may itself call calloc; serve that from a small static buffer.
static char bootstrap[4096];
static size_t bootstrap_used;
static int resolving;

static void *bootstrap_alloc(size_t size) {
    size = (size + 15) & ~(size_t)15;
    if (bootstrap_used + size > sizeof bootstrap) return NULL;
    void *p = bootstrap + bootstrap_used;
    bootstrap_used += size;
    return p;
}

void *malloc(size_t size) {
    static malloc_fn real;
    if (!real) {
        if (resolving) return bootstrap_alloc(size);
        resolving = 1;
        real = (malloc_fn)dlsym(RTLD_NEXT, "malloc");
        resolving = 0;
    }
    allocations++;
    return real(size);
}

void *calloc(size_t count, size_t size) {
    static calloc_fn real;
    if (!real) {
        if (resolving) {
            char *p = bootstrap_alloc(count * size);
            if (p) for (size_t i = 0; i < count * size; i++) p[i] = 0;
            return p;
        }
        resolving = 1;
        real = (calloc_fn)dlsym(RTLD_NEXT, "calloc");
        resolving = 0;
    }
    allocations++;
    return real(count, size);
}

void *realloc(void *pointer, size_t size) {
    static realloc_fn real;
    if (!real) {
        resolving = 1;
        real = (realloc_fn)dlsym(RTLD_NEXT, "realloc");
        resolving = 0;
    }
    allocations++;
    return real(pointer, size);
}

void free(void *pointer) {
    static void (*real)(void *);
    if ((char *)pointer >= bootstrap && (char *)pointer < bootstrap + sizeof bootstrap) return;
    if (!real) real = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    real(pointer);
}
