// Debian's zlib1g-dev: deflate, for the replay player's compact trajectories.
#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>
#endif
