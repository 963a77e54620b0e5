// Odd work-items do not touch A[lid] in the second interval: the invariant reads a location
// neither work-item of the pair accessed (another may have written it) unless the kernel says
// it reads it (`__read_permission`).
__kernel void add_pairs() {
  __local int A[128];
  A[get_local_id(0)] = 0;
  __barrier_invariant_2(A[get_local_id(0)] == 0, get_local_id(0), get_local_id(0) + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) % 2 == 0) {
    A[get_local_id(0)] = A[get_local_id(0)] + A[get_local_id(0) + 1];
  }
#ifdef PERMISSION
  __read_permission(int, A[get_local_id(0)]);
#endif
#ifdef PERMISSION_UNTYPED
  __read_permission(A[get_local_id(0)]); // the older spelling, without the type
#endif
  __barrier_invariant_1(A[get_local_id(0)] == 0, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(A[get_local_id(0)] == 0);
}
