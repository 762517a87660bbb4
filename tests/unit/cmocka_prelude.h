/* cmocka_prelude.h: what every unit test includes before cmocka.h. */
#ifndef PFSBENCH_TEST_PRELUDE_H
#define PFSBENCH_TEST_PRELUDE_H
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#endif
