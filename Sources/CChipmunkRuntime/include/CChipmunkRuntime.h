// The binding's C code that runs beside the engine: the replacements for two engine
// functions (EngineGuard.cpp) and the engine library's build id (EngineBuild.c).
#ifndef CCHIPMUNK_RUNTIME_H
#define CCHIPMUNK_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when the engine's own calls reach the replacements (the program exports them, so the
/// dynamic linker binds libchipmunk's calls to them); 0 when they do not.
int ChipmunkEngineGuardIsActive(void);

/// How many narrow-phase tests on this thread the engine could not finish (its GJK/EPA
/// stopped on a degenerate pair) and the guard answered instead.
uint64_t ChipmunkEngineGuardDegenerateCollisions(void);

/// How many warnings the engine gave on this thread (not printed unless CHIPMUNK_WARNINGS
/// is set), and the text of the last one ("" if none).
uint64_t ChipmunkEngineGuardWarnings(void);
const char *ChipmunkEngineGuardLastWarning(void);

/// Copies the GNU build id of the loaded libchipmunk.so.7 (its NT_GNU_BUILD_ID note) into
/// `out`, at most `capacity` bytes, and returns its length: 0 if it cannot be found.
size_t CChipmunkEngineBuildID(unsigned char *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
