#!/bin/sh
test_description='check-layers: calls between library files go down only'
. "$(dirname "$0")/test-lib.sh"

CHECK="python3 $TEST_DIRECTORY/check-layers.py"
CC=${CC:-cc}

# low.o defines low(); mid.o calls it; top.o calls mid().
test_expect_success 'setup: three objects in layers' '
	printf "int low(void) { return 1; }\n" >low.c &&
	printf "int low(void); int mid(void) { return low(); }\n" >mid.c &&
	printf "int mid(void); int top(void) { return mid(); }\n" >top.c &&
	$CC -c low.c && $CC -c mid.c && $CC -c top.c
'

test_expect_success 'layers without a cycle pass, in order or not' '
	$CHECK low.o mid.o top.o >out &&
	test ! -s out &&
	$CHECK --order low.o mid.o top.o &&
	$CHECK top.o low.o mid.o
'

test_expect_success '--order names a call to a file listed later' '
	test_must_fail $CHECK --order mid.o low.o top.o >out &&
	grep "mid.o calls low.o, listed after it" out &&
	grep "mid.o -> low.o: low" out
'

test_expect_success 'a cycle fails, naming its files and symbols' '
	printf "int top(void); int low(void) { return top(); }\n" >low.c &&
	$CC -c low.c &&
	test_must_fail $CHECK low.o mid.o top.o >out &&
	grep "^check-layers: cycle: low.o mid.o top.o$" out &&
	grep "low.o -> top.o: top" out &&
	grep "mid.o -> low.o: low" out &&
	grep "top.o -> mid.o: mid" out
'

test_expect_success 'an allowed pair is tolerated, a bigger cycle is not' '
	printf "int mid(void); int low(void) { return mid(); }\n" >low.c &&
	$CC -c low.c &&
	test_must_fail $CHECK low.o mid.o >out &&
	$CHECK --allow low.o:mid.o low.o mid.o top.o &&
	printf "int top(void); int low(void) { return top(); }\n" >low.c &&
	$CC -c low.c &&
	test_must_fail $CHECK --allow low.o:mid.o low.o mid.o top.o
'

test_done
