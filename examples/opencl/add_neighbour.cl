// expect: race
// --local_size=64 --num_groups=1
// expect: verified
// --local_size=64 --num_groups=1 -DWITH_BARRIER
//
// The lecture notes' `add_neighbour` (Donaldson's ENS Lyon lecture 1, "Illustration of data race"): with offset 1,
// work-item 0 reads A[1] while work-item 1 writes it. Reading the neighbour into a private
// variable before a barrier removes the race.

__kernel void add_neighbour(__local int *A, int offset) {
  int tid = get_local_id(0);
#ifdef WITH_BARRIER
  int temp = A[tid + offset];
  barrier(CLK_LOCAL_MEM_FENCE);
  A[tid] = A[tid] + temp;
#else
  A[tid] = A[tid] + A[tid + offset];
#endif
}
