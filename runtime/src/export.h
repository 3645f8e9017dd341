/*
** export.h: which symbols the shared libnsmrt exports.
**
** Every core source is compiled with -fvisibility=hidden and with this file
** included first (-include), so that the functions declared in the public
** header nsm/nsm.h get default visibility and everything else — rt_*, the
** dense kernels, the energy terms — stays inside the library.  The public
** header itself carries no attribute: the static library and the programs
** that include it see plain declarations.
*/
#ifndef NSM_EXPORT_H
#define NSM_EXPORT_H

#pragma GCC visibility push(default)
#include "nsm/nsm.h"
#pragma GCC visibility pop

#endif
