#ifndef SYNCGEN_CYAML_SHIM_H
#define SYNCGEN_CYAML_SHIM_H
#include <yaml.h>
#endif
