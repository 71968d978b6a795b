// What SpaceClone.c needs of KeptContacts.c. Private to CChipmunkRuntime.
#ifndef CCHIPMUNK_KEPT_CONTACTS_H
#define CCHIPMUNK_KEPT_CONTACTS_H

#include <chipmunk/chipmunk_private.h>

#include "CChipmunkRuntime.h"

/// A new block for `arbiter->count` contacts, kept for `arbiter` (which must point at it
/// once filled); NULL when out of memory or `kept` is NULL.
struct cpContact *CChipmunkKeptContactsAdd(CChipmunkKeptContacts *kept, cpArbiter *arbiter);

#endif
