/*
 * flowpack.h — a rule pack with legacy-object flow, for the engine's and the flow's tests:
 * PE-USE reports the uses of what PE-IDENT matched (and, `arguments`, the object passed on
 * or returned).
 */
#ifndef SUNSET_TEST_FLOWPACK_H
#define SUNSET_TEST_FLOWPACK_H

static const char *flow_pack =
    "{\"schema\":1,\"family\":\"parallel_executor\",\"settings\":{\"families\":[{\"id\":\"parallel_executor\","
    "\"title\":\"PE\"}]},\"rules\":["
    "{\"id\":\"PE-IDENT\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"identifier\",\"names\":[\"ParallelExecutor\"]}},"
    "{\"id\":\"PE-USE\",\"task\":5,\"languages\":[\"python\"],\"severity\":\"error\",\"message\":\"m\",\"fix\":\"f\","
    " \"match\":{\"kind\":\"attribute\",\"receiver\":{\"bound_to\":[\"PE-IDENT\"],\"arguments\":true}}}"
    "]}";

#endif
