// With x == 3 (GPUVerify's --kernel-args=foo,0x3) each work-item writes its own element; any
// other x makes every work-item write A[0].
kernel void foo(local int *A, int x) {
  if (x == 3) {
    A[get_local_id(0)] = 3;
  } else {
    A[0] = get_local_id(0);
  }
}
