// The one place SwiftChipmunk touches C: Debian's libchipmunk-dev (Chipmunk 7.0.3).
// Debian ships no pkg-config file, so module.modulemap names the library itself.
#ifndef CCHIPMUNK_SHIM_H
#define CCHIPMUNK_SHIM_H

#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>

// chipmunk_private.h includes chipmunk.h and makes the structs complete, so that
// handles import as typed pointers. Use its fields only where the public API has no way.
#include <chipmunk/chipmunk_private.h>

/// `cpVersionString` is a mutable global, which Swift 6 refuses to read; this reads it.
static inline const char *CChipmunkVersionString(void) { return cpVersionString; }

/// `cpSpaceNew`, with the debug build's two-line banner kept off standard output.
///
/// Debian's build prints "Initializing cpSpace - Chipmunk v7.0.3 (Debug Enabled)" and a
/// hint on stdout from the first `cpSpaceNew` in a process. Tools that write data to
/// stdout must not see it, so the first space is made with stdout pointed at /dev/null.
/// Another thread writing to stdout in that instant would lose its output too, which is
/// why the Swift layer calls this once, before any space exists.
static inline cpSpace *CChipmunkSpaceNewQuietly(void) {
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    int devnull = open("/dev/null", O_WRONLY);
    if (saved >= 0 && devnull >= 0) dup2(devnull, STDOUT_FILENO);
    cpSpace *space = cpSpaceNew();
    fflush(stdout);
    if (saved >= 0) { dup2(saved, STDOUT_FILENO); close(saved); }
    if (devnull >= 0) close(devnull);
    return space;
}

#endif
