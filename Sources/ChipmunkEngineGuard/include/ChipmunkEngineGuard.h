// The binding's replacements for two engine functions; see EngineGuard.c.
#ifndef CHIPMUNK_ENGINE_GUARD_H
#define CHIPMUNK_ENGINE_GUARD_H

#include <stdint.h>

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

#endif
