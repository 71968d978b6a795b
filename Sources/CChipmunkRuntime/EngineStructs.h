// What CChipmunkRuntime's files share about the engine's public structs (chipmunk_structs.h).
// Private to CChipmunkRuntime.
#ifndef CCHIPMUNK_ENGINE_STRUCTS_H
#define CCHIPMUNK_ENGINE_STRUCTS_H

#include <chipmunk/chipmunk_private.h>

/// The size of a constraint's whole struct, by its class; 0 for a class the engine lacks.
size_t CChipmunkConstraintStructSize(const cpConstraint *c);

#endif
