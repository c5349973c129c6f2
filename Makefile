# routesim: the README's commands. Every target runs the setup step first (installs missing
# Debian packages), then configures and builds with CMake in build/ (or build-asan/).
MAKEFLAGS += --no-print-directory
WERROR ?= 0
JOBS ?= 2
BUILD := build
CMAKE_FLAGS := -DRS_WERROR=$(if $(filter 1,$(WERROR)),ON,OFF)

PREFIX ?= /usr/local

.PHONY: all setup build run test bench bench-large bench-growth sanitize clean install

all: build

setup:
	@bash scripts/setup.sh

build: setup
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@bash scripts/main-job.sh $(BUILD)/routesim

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The binary, libroutesim.a and .so, public headers, routesim.pc, man pages, experiments and
# the Python module under PREFIX (docs/install.md).
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	@bash bench/run.sh $(BUILD)

# 2^24 and 2^26 inputs, store-and-forward (not part of `make test`; minutes and GiB)
bench-large: build
	@bash bench/large.sh $(BUILD)

# growth of time and memory with N per engine, fitted and extrapolated (not part of `make test`)
bench-growth: build
	@bash bench/growth.sh $(BUILD)

sanitize: setup
	@cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DRS_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build build-asan -j $(JOBS)
	@cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

clean:
	rm -rf $(BUILD) build-asan
