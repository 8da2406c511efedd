// OpenMP (GCC's libgomp) parallel regions inside simulated ranks: see openmp_interposition.cpp.
#pragma once
#include <pthread.h>

namespace xsim::runtime {

// pthread_create's question: when `caller` (the code that called pthread_create) is libgomp
// and a simulated rank has a parallel region open in this process (entered through an
// interposed GOMP_* entry point), creates the thread as a worker whose CPU time the region
// charges, stores pthread_create's result in `result` and returns true. Otherwise returns
// false and does nothing.
bool create_openmp_worker(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg,
                          const void* caller, int& result);

// True when a parallel region of a simulated rank is open in this process.
bool openmp_region_open();

}  // namespace xsim::runtime
