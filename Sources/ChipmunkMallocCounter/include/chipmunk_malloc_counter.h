#include <stdint.h>
/// Heap allocations (malloc, calloc, realloc) since the process started.
uint64_t chipmunk_malloc_count(void);
