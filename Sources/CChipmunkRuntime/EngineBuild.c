// The engine library's identity: the GNU build id of the libchipmunk.so.7 this process
// loaded (the ELF note NT_GNU_BUILD_ID that the linker writes). Two builds of 7.0.3 (amd64
// and arm64, or a rebuild with other flags) share a version and differ here, so golden
// files record it: `verify` can then tell another build of the engine from changed physics.
#define _GNU_SOURCE
#include "CChipmunkRuntime.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <string.h>

struct Search {
    ElfW(Addr) base;
    unsigned char *out;
    size_t capacity;
    size_t length;
};

static size_t align4(size_t n) { return (n + 3) & ~(size_t)3; }

static int findBuildID(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct Search *search = data;
    if (info->dlpi_addr != search->base) return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[i];
        if (header->p_type != PT_NOTE) continue;
        const unsigned char *note = (const unsigned char *)(info->dlpi_addr + header->p_vaddr);
        const unsigned char *end = note + header->p_memsz;
        while (note + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *entry = (const ElfW(Nhdr) *)note;
            const unsigned char *name = note + sizeof(ElfW(Nhdr));
            const unsigned char *desc = name + align4(entry->n_namesz);
            if (desc + entry->n_descsz > end) break;
            if (entry->n_type == NT_GNU_BUILD_ID && entry->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                size_t length = entry->n_descsz < search->capacity ? entry->n_descsz : search->capacity;
                memcpy(search->out, desc, length);
                search->length = length;
                return 1;
            }
            note = desc + align4(entry->n_descsz);
        }
    }
    return 1;
}

size_t CChipmunkEngineBuildID(unsigned char *out, size_t capacity) {
    void *library = dlopen("libchipmunk.so.7", RTLD_LAZY | RTLD_NOLOAD);
    if (library == NULL) return 0;
    struct link_map *map = NULL;
    int found = dlinfo(library, RTLD_DI_LINKMAP, &map);
    dlclose(library);
    if (found != 0 || map == NULL) return 0;
    struct Search search = {map->l_addr, out, capacity, 0};
    dl_iterate_phdr(findBuildID, &search);
    return search.length;
}
