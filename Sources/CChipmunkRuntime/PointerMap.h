// An address → value map with open addressing and linear probing, for the runtime's
// lookups of engine objects by address: a clone's counterparts, a capture's shape indices
// and pair numbers. Each lookup is about one cache miss; a sorted array and bsearch took
// about twenty for the 560,000 pairs of a 2,500-body joint grid.
#ifndef CCHIPMUNK_POINTER_MAP_H
#define CCHIPMUNK_POINTER_MAP_H

#include <stdint.h>
#include <stdlib.h>

typedef struct PointerMap {
    const void **keys;  // NULL: an empty slot
    uintptr_t *values;
    size_t mask;
} PointerMap;

/// A map for up to `count` keys (it does not grow); 0 when out of memory.
static inline int pointerMapInit(PointerMap *map, size_t count) {
    size_t size = 64;
    while (size < count * 2) size <<= 1;
    map->keys = calloc(size, sizeof(void *));
    map->values = malloc(size * sizeof(uintptr_t));
    map->mask = size - 1;
    return map->keys && map->values;
}

static inline void pointerMapFree(PointerMap *map) {
    free(map->keys);
    free(map->values);
    map->keys = NULL;
    map->values = NULL;
}

static inline size_t pointerMapSlot(const PointerMap *map, const void *key) {
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 32) & map->mask;
}

/// Stores `value` for `key` (not NULL), replacing any value it had.
static inline void pointerMapPut(PointerMap *map, const void *key, uintptr_t value) {
    size_t i = pointerMapSlot(map, key);
    while (map->keys[i] && map->keys[i] != key) i = (i + 1) & map->mask;
    map->keys[i] = key;
    map->values[i] = value;
}

/// Whether the map holds `key`, and then its value in `*value`.
static inline int pointerMapFind(const PointerMap *map, const void *key, uintptr_t *value) {
    if (!key) return 0;
    for (size_t i = pointerMapSlot(map, key); map->keys[i]; i = (i + 1) & map->mask) {
        if (map->keys[i] == key) {
            *value = map->values[i];
            return 1;
        }
    }
    return 0;
}

#endif
