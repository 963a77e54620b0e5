// expect: verified
// --local_size=64 --num_groups=16
// expect: race
// --local_size=64 --num_groups=16 -DHALF_INDEX
//
// OpenCL vectors: each work-item scales one float4 and swaps its halves with a swizzle. With
// `HALF_INDEX` two work-items write the same float4.

__kernel void scale(__global const float4 *in, __global float4 *out, float k) {
  size_t i = get_global_id(0);
  float4 v = in[i] * k;
#ifdef HALF_INDEX
  out[i / 2] = v.zwxy;
#else
  out[i] = v.zwxy;
#endif
}
