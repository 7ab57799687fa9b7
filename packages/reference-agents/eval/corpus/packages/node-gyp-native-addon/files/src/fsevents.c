#include <node_api.h>
