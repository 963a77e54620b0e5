// vload4/vstore4 over arrays of floats: work-item i reads and writes the four floats
// 4i .. 4i + 3. With OVERLAP work-items 2j and 2j + 1 both write the floats 4j .. 4j + 3.
__kernel void scale4(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
#ifdef OVERLAP
  vstore4(v * 2.0f, i / 2, out);
#else
  vstore4(v * 2.0f, i, out);
#endif
}
