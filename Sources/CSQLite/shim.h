#ifndef SYNCGEN_CSQLITE_SHIM_H
#define SYNCGEN_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
