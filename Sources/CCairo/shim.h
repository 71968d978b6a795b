// Debian's libcairo2-dev: the 2D library that draws PNG frames (ChipmunkScenes/Pictures).
#ifndef CCAIRO_SHIM_H
#define CCAIRO_SHIM_H
#include <cairo/cairo.h>
#endif
