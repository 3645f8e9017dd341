# Thin driver around CMake. `make` sets up, builds and runs the main job;
# `make test` sets up, builds and runs every test, then again under ASan+UBSan
# (all but the pure-Python reference checks, which run no C code), where
# a compiler warning is an error.
BUILD      ?= build
BUILD_SAN  ?= build-asan
JOBS       ?= 2
CMAKE_ARGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all setup build run test test-build test-asan clean
all: run

setup:
	@sh scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD) $(CMAKE_ARGS)
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@sh scripts/main-job.sh $(BUILD)

test: test-build test-asan

test-build: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

test-asan: setup
	cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DNSM_SANITIZE=ON -DNSM_WERROR=ON
	cmake --build $(BUILD_SAN) -j $(JOBS)
	ctest --test-dir $(BUILD_SAN) --output-on-failure -j $(JOBS) -LE '^reference$$'

clean:
	rm -rf $(BUILD) $(BUILD_SAN)
