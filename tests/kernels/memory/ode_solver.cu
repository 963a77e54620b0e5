// expect: inconclusive under --max-memory 400M (the race check of ytmp has 16 million access pairs); scale: verified
// --blockDim=64 --gridDim=4
// Shape of a cell-model ODE solver kernel (written by scripts/gen-ode-kernel.py, not taken
// from any suite): an explicit Runge-Kutta integrator, each stage calling the model's
// right-hand side, whose device functions are hundreds of straight-line float statements
// with small loops over parameter arrays; each thread integrates its own cell.
#include <cuda.h>

#define NEQ 48
#define NPAR 96
#define NSTAGE 13

__device__ void ecc(float t, const float *y, float *dy, const float *p, int off) {
    float e_0 = (y[off + 14] * ((p[80] + p[17]) - (9.2524f * 4.7448f)));
    float e_1 = y[off + 4];
    float e_2 = ((y[off + 45] * e_1) / (powf(e_0, p[74]) / y[off + 45]));
    float e_3 = (e_0 * logf(1.0f + fabsf(logf(1.0f + fabsf(e_1)))));
    float e_4 = p[22];
    float e_5 = (((p[25] + e_0) * e_1) - e_2);
    float e_6 = (logf(1.0f + fabsf((e_0 * 3.7447f))) * sqrtf(1.0f + fabsf(e_3)));
    float e_7 = ((y[off + 42] - expf(-p[67] / p[62])) * (e_0 * (p[76] + e_2)));
    float e_8 = e_6;
    float e_9 = e_8;
    float e_10 = e_0;
    float e_11 = logf(1.0f + fabsf(e_2));
    float e_12 = (logf(1.0f + fabsf(e_5)) * p[42]);
    float e_13 = (((y[off + 17] + y[off + 26]) / (y[off + 11] * y[off + 5])) / (p[8] * (y[off + 42] + y[off + 6])));
    float e_14 = (y[off + 17] + sqrtf(1.0f + fabsf((e_4 * e_3))));
    float e_15 = 6.4393f;
    float e_16 = ((expf(-e_14 / p[30]) - 8.1983f) * p[46]);
    float e_17 = e_15;
    float e_18 = p[74];
    float e_19 = sqrtf(1.0f + fabsf(sqrtf(1.0f + fabsf(expf(-y[off + 4] / p[30])))));
    float e_20 = (6.8027f - p[85]);
    float e_21 = (sqrtf(1.0f + fabsf(p[43])) * e_12);
    float e_22 = (e_12 - ((y[off + 18] * e_8) / p[19]));
    float e_23 = expf(-e_19 / p[4]);
    float e_24 = logf(1.0f + fabsf((sqrtf(1.0f + fabsf(e_20)) + (e_17 * y[off + 10]))));
    float e_25 = ((sqrtf(1.0f + fabsf(e_23)) + (1.5172f * p[45])) - ((y[off + 43] / e_2) / (9.0190f * e_10)));
    float e_26 = (((e_17 * y[off + 8]) * y[off + 27]) + (expf(-y[off + 11] / p[28]) / e_14));
    float e_27 = (5.5450f * (logf(1.0f + fabsf(e_25)) * (p[12] * p[65])));
    float e_28 = (((e_19 * y[off + 20]) - e_4) - logf(1.0f + fabsf((8.3852f - y[off + 2]))));
    float e_29 = ((expf(-y[off + 12] / p[3]) * (e_16 + p[66])) - ((p[69] * e_9) * (p[27] - p[78])));
    float e_30 = (((e_28 * e_24) + e_7) * (p[56] / (e_29 * e_25)));
    float e_31 = (logf(1.0f + fabsf((e_8 + y[off + 25]))) - (expf(-p[27] / p[3]) - (e_7 * e_11)));
    float e_32 = logf(1.0f + fabsf(sqrtf(1.0f + fabsf(y[off + 46]))));
    float e_33 = y[off + 38];
    float e_34 = ((sqrtf(1.0f + fabsf(e_13)) - (e_13 * 8.5884f)) * y[off + 26]);
    float e_35 = logf(1.0f + fabsf(e_11));
    float e_36 = y[off + 25];
    float e_37 = sqrtf(1.0f + fabsf(1.8933f));
    float e_38 = e_25;
    float e_39 = ((sqrtf(1.0f + fabsf(y[off + 9])) * (e_27 * p[63])) * sqrtf(1.0f + fabsf((y[off + 42] * 5.9405f))));
    float e_40 = y[off + 2];
    float e_41 = (((e_25 + e_36) / (p[46] / p[19])) * (e_34 * (y[off + 11] - e_34)));
    float e_42 = y[off + 0];
    float e_43 = y[off + 15];
    float e_44 = (e_37 * powf(e_22, e_43));
    float e_45 = e_32;
    float e_46 = (((e_22 * e_40) - (e_25 - p[82])) * e_34);
    float e_47 = (e_35 * p[48]);
    float e_48 = (powf((e_27 - p[48]), e_28) * ((e_24 / e_30) * y[off + 20]));
    float e_49 = (sqrtf(1.0f + fabsf((6.5035f / e_46))) + e_44);
    float e_50 = (((e_38 * y[off + 29]) * powf(y[off + 38], e_39)) * ((y[off + 21] * 5.5863f) / (y[off + 27] * e_38)));
    float e_51 = (e_47 - (e_50 - e_43));
    float e_52 = (((e_35 * e_50) + e_51) * e_39);
    float e_53 = sqrtf(1.0f + fabsf(((e_47 * e_49) - (p[79] + y[off + 35]))));
    float e_54 = (((y[off + 34] - p[65]) + (p[13] - e_44)) * sqrtf(1.0f + fabsf(2.1043f)));
    float e_55 = (y[off + 31] + e_32);
    float e_56 = e_48;
    float e_57 = ((e_44 * (p[37] / e_40)) / p[76]);
    float e_58 = (((e_41 - e_49) * powf(e_48, y[off + 32])) + logf(1.0f + fabsf(e_44)));
    float e_59 = ((e_42 * y[off + 5]) - ((p[44] + e_38) - logf(1.0f + fabsf(e_52))));
    float e_60 = expf(-powf(e_40, y[off + 18]) / p[63]);
    float e_61 = (powf(e_46, e_45) * e_51);
    float e_62 = ((y[off + 8] / (e_51 / 8.3754f)) * p[41]);
    float e_63 = (((e_58 + p[67]) - (e_61 + e_62)) - e_56);
    float e_64 = (p[17] - expf(-(e_56 / e_59) / p[20]));
    float e_65 = p[42];
    float e_66 = (expf(-(p[6] - e_44) / p[26]) * ((e_52 + e_59) * (e_55 * e_51)));
    float e_67 = sqrtf(1.0f + fabsf((e_49 - logf(1.0f + fabsf(e_62)))));
    float e_68 = (p[5] / (expf(-p[74] / p[38]) * (e_48 / p[63])));
    float e_69 = y[off + 47];
    float e_70 = ((y[off + 8] / (e_66 * p[11])) - y[off + 8]);
    float e_71 = y[off + 34];
    float e_72 = e_54;
    float e_73 = (p[60] + (e_53 - (e_54 * e_69)));
    float e_74 = (((e_63 + p[91]) / logf(1.0f + fabsf(e_57))) + e_64);
    float e_75 = (((y[off + 31] / y[off + 42]) + e_74) / (powf(e_56, e_52) + logf(1.0f + fabsf(e_74))));
    float e_76 = ((e_73 + (y[off + 33] - y[off + 0])) / ((2.4354f * e_55) * (e_67 * p[80])));
    float e_77 = (e_67 / ((e_75 / p[17]) / (e_66 / y[off + 18])));
    float e_78 = sqrtf(1.0f + fabsf((e_71 - (e_61 + 3.7574f))));
    float e_79 = y[off + 38];
    float e_80 = (e_74 - 9.2238f);
    float e_81 = ((e_62 * sqrtf(1.0f + fabsf(e_59))) - (y[off + 40] + (p[30] * e_77)));
    float e_82 = expf(-(expf(-e_63 / p[45]) * (e_73 - e_78)) / p[40]);
    float e_83 = 0.6139f;
    float e_84 = (e_62 * (y[off + 13] * 6.0026f));
    float e_85 = 4.0561f;
    float e_86 = (logf(1.0f + fabsf(e_67)) - sqrtf(1.0f + fabsf((p[31] - y[off + 34]))));
    float e_87 = 5.2091f;
    float e_88 = (powf(logf(1.0f + fabsf(e_71)), e_73) * (sqrtf(1.0f + fabsf(p[47])) - (4.6678f - 5.3268f)));
    float e_89 = e_65;
    float e_90 = (powf((e_87 * e_73), p[14]) + (7.5305f - y[off + 21]));
    float e_91 = ((powf(p[64], p[24]) + (e_70 * e_84)) / ((y[off + 1] - e_71) * (p[34] * e_90)));
    float e_92 = p[33];
    float e_93 = (((8.6883f - e_77) + (y[off + 7] + e_79)) / sqrtf(1.0f + fabsf((y[off + 31] - e_73))));
    float e_94 = ((logf(1.0f + fabsf(e_81)) - (p[6] - p[48])) + (p[67] * (y[off + 5] * e_82)));
    float e_95 = (powf((e_81 + e_87), e_90) + (p[36] + (e_84 - p[13])));
    float e_96 = (((y[off + 15] + e_94) + (y[off + 23] * y[off + 37])) * e_87);
    float e_97 = powf(8.7922f, p[67]);
    float e_98 = expf(-((e_90 / 1.6193f) - (p[59] * e_97)) / p[0]);
    float e_99 = (((e_85 + e_91) - (e_85 - e_78)) + 8.2112f);
    float e_100 = (((e_96 * y[off + 24]) + expf(-e_93 / p[67])) * (p[45] - p[40]));
    float e_101 = (sqrtf(1.0f + fabsf((e_100 * e_87))) + (y[off + 8] / e_87));
    float e_102 = sqrtf(1.0f + fabsf(e_97));
    float e_103 = ((e_101 * y[off + 41]) - ((e_91 * e_79) * p[9]));
    float e_104 = expf(-(expf(-e_95 / p[93]) * y[off + 10]) / p[58]);
    float e_105 = e_94;
    float e_106 = (((e_84 - e_90) * (y[off + 29] * y[off + 39])) / (e_103 * 3.9318f));
    float e_107 = e_89;
    float e_108 = logf(1.0f + fabsf(((e_92 * 7.3695f) * y[off + 43])));
    float e_109 = 8.4441f;
    float e_110 = (p[45] + (e_102 * (e_97 * p[86])));
    float e_111 = ((e_98 * (e_109 / y[off + 44])) - (logf(1.0f + fabsf(y[off + 7])) + powf(e_90, e_99)));
    float e_112 = (y[off + 3] + 6.4129f);
    float e_113 = e_90;
    float e_114 = (y[off + 35] - expf(-(e_111 - e_100) / p[15]));
    float e_115 = (e_110 / (logf(1.0f + fabsf(e_101)) * (y[off + 10] * e_98)));
    float e_116 = expf(-((y[off + 27] + e_95) * (y[off + 10] + y[off + 35])) / p[76]);
    float e_117 = (p[61] * p[83]);
    float e_118 = powf(((e_112 * y[off + 11]) + y[off + 31]), e_103);
    float e_119 = (2.8968f + ((e_98 / y[off + 42]) * (y[off + 21] + p[87])));
    float e_120 = (e_109 - y[off + 13]);
    float e_121 = e_104;
    float e_122 = (e_104 * e_121);
    float e_123 = ((sqrtf(1.0f + fabsf(p[38])) - 4.2841f) * y[off + 37]);
    float e_124 = expf(-y[off + 34] / p[75]);
    float e_125 = ((p[73] * e_115) + ((2.7886f * y[off + 36]) + (e_122 + y[off + 0])));
    float e_126 = (((p[33] * 8.4854f) - (y[off + 31] * e_121)) * expf(-(e_115 * e_109) / p[84]));
    float e_127 = ((y[off + 6] * (y[off + 34] + e_109)) * logf(1.0f + fabsf(p[39])));
    float e_128 = ((logf(1.0f + fabsf(y[off + 45])) + e_118) * (y[off + 5] + e_127));
    float e_129 = p[36];
    float e_130 = (p[48] - p[52]);
    float e_131 = (((y[off + 41] * e_123) - e_115) + ((e_126 * y[off + 32]) + powf(4.8460f, e_111)));
    float e_132 = p[54];
    float e_133 = e_125;
    float e_134 = y[off + 7];
    float e_135 = (powf(y[off + 47], e_121) * ((1.5266f + y[off + 26]) / (y[off + 11] * e_112)));
    float e_136 = ((e_120 * logf(1.0f + fabsf(9.0752f))) + (p[65] - e_121));
    float e_137 = expf(-p[5] / p[28]);
    float e_138 = p[1];
    float e_139 = 2.0808f;
    float e_140 = e_133;
    float e_141 = (((p[70] - y[off + 36]) / e_133) + logf(1.0f + fabsf((p[82] + y[off + 21]))));
    float e_142 = (5.4215f / powf(powf(y[off + 39], y[off + 25]), y[off + 12]));
    float e_143 = (p[46] / (e_121 * e_137));
    float e_144 = expf(-(e_128 + (y[off + 34] / y[off + 19])) / p[73]);
    float e_145 = (y[off + 9] * (sqrtf(1.0f + fabsf(3.5757f)) * (p[80] - e_137)));
    float e_146 = p[10];
    float e_147 = y[off + 18];
    float e_148 = y[off + 13];
    float e_149 = (powf((p[43] - 5.4918f), e_133) + e_139);
    float e_150 = y[off + 6];
    float e_151 = (e_140 * (e_133 / e_149));
    float e_152 = y[off + 16];
    float e_153 = ((logf(1.0f + fabsf(y[off + 46])) - y[off + 37]) - (sqrtf(1.0f + fabsf(e_148)) * e_133));
    float e_154 = (((e_134 / e_140) * (2.3068f + 3.2166f)) + ((y[off + 35] * e_143) / (p[35] * e_153)));
    float e_155 = (e_149 + powf(y[off + 41], e_151));
    float e_156 = ((e_139 * e_154) + (logf(1.0f + fabsf(p[47])) / y[off + 0]));
    float e_157 = (e_156 - p[90]);
    float e_158 = y[off + 35];
    float e_159 = ((expf(-p[18] / p[9]) - (1.9041f + y[off + 15])) / ((p[45] * e_156) * (e_135 / e_138)));
    float e_160 = (((e_143 * 2.0439f) + (p[57] - p[75])) - ((p[27] * y[off + 8]) / (y[off + 5] / y[off + 36])));
    float e_161 = powf((p[90] * (y[off + 17] * y[off + 27])), e_142);
    float e_162 = 9.3876f;
    float e_163 = ((y[off + 16] - (4.7148f + e_159)) + ((e_157 * y[off + 16]) / logf(1.0f + fabsf(e_155))));
    float e_164 = y[off + 27];
    float e_165 = (((e_160 + 3.1569f) + (e_146 / y[off + 33])) * (e_151 * powf(e_160, y[off + 6])));
    float e_166 = e_147;
    float e_167 = (((e_151 + 1.0086f) - sqrtf(1.0f + fabsf(y[off + 39]))) / ((p[30] - e_150) - (3.4212f - p[62])));
    float e_168 = (e_163 * (y[off + 14] * logf(1.0f + fabsf(y[off + 0]))));
    float e_169 = ((powf(y[off + 35], e_167) / (e_148 + e_163)) + (y[off + 47] * p[56]));
    float e_170 = ((powf(p[19], p[34]) / (p[67] - e_155)) * ((e_157 * y[off + 38]) / p[13]));
    float e_171 = (e_154 - p[40]);
    float e_172 = ((y[off + 31] * (y[off + 3] * p[35])) + ((e_167 / 8.5908f) * (y[off + 26] + y[off + 21])));
    float e_173 = 1.4690f;
    float e_174 = e_160;
    float e_175 = p[82];
    float e_176 = ((3.3965f / (y[off + 20] - p[72])) / y[off + 15]);
    float e_177 = e_168;
    float e_178 = (e_172 * powf((e_159 + e_163), 0.6874f));
    float e_179 = (sqrtf(1.0f + fabsf((e_160 - y[off + 7]))) * ((e_170 * e_158) * (y[off + 4] / e_158)));
    float e_180 = ((e_175 / (p[28] * y[off + 13])) - p[4]);
    float e_181 = logf(1.0f + fabsf(p[65]));
    float e_182 = logf(1.0f + fabsf((expf(-e_175 / p[70]) * (y[off + 24] + 6.7337f))));
    float e_183 = y[off + 35];
    float e_184 = ((sqrtf(1.0f + fabsf(p[71])) / expf(-e_180 / p[74])) / expf(-e_171 / p[24]));
    float e_185 = (p[25] - ((e_162 + 3.2898f) - (p[59] - 7.0216f)));
    float e_186 = e_185;
    float e_187 = 7.6532f;
    float e_188 = powf(e_167, e_175);
    float e_189 = p[34];
    float e_190 = (((e_175 - p[68]) / (y[off + 45] / e_173)) / ((y[off + 7] / p[81]) * (p[5] * e_175)));
    float e_191 = powf(((y[off + 44] + p[92]) * (e_171 * e_168)), y[off + 16]);
    float e_192 = expf(-y[off + 12] / p[3]);
    float e_193 = p[63];
    float e_194 = ((e_170 - (y[off + 7] + p[81])) + ((e_189 * e_193) / (y[off + 28] - y[off + 16])));
    float e_195 = powf(((p[11] / y[off + 18]) * (e_183 * e_174)), e_176);
    float e_196 = e_181;
    float e_197 = (e_193 + (y[off + 30] / e_183));
    float e_198 = e_181;
    float e_199 = e_177;
    float e_200 = (e_189 + y[off + 11]);
    float e_201 = (((e_177 / e_193) - (e_192 * y[off + 40])) * e_195);
    float e_202 = (((e_183 / y[off + 35]) * (e_184 + p[39])) * logf(1.0f + fabsf(p[80])));
    float e_203 = ((e_194 - e_199) * y[off + 19]);
    float e_204 = y[off + 7];
    float e_205 = expf(-((y[off + 31] + y[off + 36]) * (p[71] * y[off + 5])) / p[20]);
    float e_206 = logf(1.0f + fabsf(y[off + 41]));
    float e_207 = ((p[40] * (4.2627f / y[off + 7])) / ((e_188 + y[off + 1]) * sqrtf(1.0f + fabsf(e_191))));
    float e_208 = logf(1.0f + fabsf(((e_184 - p[76]) * p[58])));
    float e_209 = (e_187 - ((e_196 + e_202) / (e_207 - e_188)));
    float e_210 = p[71];
    float e_211 = logf(1.0f + fabsf(p[90]));
    float e_212 = e_202;
    float e_213 = (p[86] / y[off + 44]);
    float e_214 = p[53];
    float e_215 = logf(1.0f + fabsf(((p[14] / 5.7423f) + (e_210 - e_192))));
    float e_216 = logf(1.0f + fabsf(y[off + 16]));
    float e_217 = e_206;
    float e_218 = ((e_197 + (p[25] * e_216)) * ((e_198 + e_211) - e_210));
    float e_219 = p[25];
    float e_220 = (sqrtf(1.0f + fabsf((e_206 / e_200))) * ((e_210 + 9.7568f) / y[off + 31]));
    float e_221 = (powf(p[75], p[25]) + y[off + 46]);
    float e_222 = (((e_217 - e_213) * (p[46] + e_218)) + (y[off + 3] / logf(1.0f + fabsf(e_200))));
    float e_223 = (p[42] * (sqrtf(1.0f + fabsf(y[off + 33])) + (e_204 / y[off + 45])));
    float e_224 = (((y[off + 16] - p[59]) * (p[6] - e_217)) / ((8.4682f - e_220) - (e_204 * y[off + 16])));
    float e_225 = expf(-(6.3786f / (9.0571f / e_211)) / p[27]);
    float e_226 = sqrtf(1.0f + fabsf(e_221));
    float e_227 = p[41];
    float e_228 = (y[off + 8] + p[60]);
    float e_229 = ((e_205 * sqrtf(1.0f + fabsf(e_209))) / ((e_221 - y[off + 11]) - (e_205 * e_215)));
    float e_230 = y[off + 2];
    float e_231 = p[77];
    float e_232 = (e_208 + ((y[off + 5] / y[off + 17]) + (p[21] - y[off + 30])));
    float e_233 = (p[36] + (e_211 * (5.2249f / e_227)));
    float e_234 = (expf(-(p[95] / y[off + 39]) / p[93]) - p[22]);
    float e_235 = (((e_223 * y[off + 20]) * (e_219 * e_216)) * (expf(-e_227 / p[78]) - (e_221 * y[off + 44])));
    float e_236 = ((powf(3.4337f, e_235) - (e_220 - e_229)) / ((e_235 - e_225) * y[off + 18]));
    float e_237 = e_228;
    float e_238 = p[37];
    float e_239 = (7.9390f * e_228);
    dy[off + 0] = e_116 - e_158 * y[off + 0];
    dy[off + 1] = e_144 - e_110 * y[off + 1];
    dy[off + 2] = e_87 - e_151 * y[off + 2];
    dy[off + 3] = e_100 - e_229 * y[off + 3];
    dy[off + 4] = e_214 - e_17 * y[off + 4];
    dy[off + 5] = e_140 - e_141 * y[off + 5];
    dy[off + 6] = e_183 - e_109 * y[off + 6];
    dy[off + 7] = e_197 - e_76 * y[off + 7];
    dy[off + 8] = e_39 - e_163 * y[off + 8];
    dy[off + 9] = e_78 - e_233 * y[off + 9];
    dy[off + 10] = e_35 - e_193 * y[off + 10];
    dy[off + 11] = e_223 - e_132 * y[off + 11];
    dy[off + 12] = e_205 - e_177 * y[off + 12];
    dy[off + 13] = e_2 - e_179 * y[off + 13];
    dy[off + 14] = e_26 - e_79 * y[off + 14];
    dy[off + 15] = e_43 - e_53 * y[off + 15];
}

__device__ float cam(const float *y, float *dy, const float *p, int off, int comp, float ca) {
    float bound = 0.0f;
    for (int i = 0; i < 8; i++) {
        float on = p[comp * 16 + i] * ca * y[off + i];
        float off_rate = p[comp * 16 + 8 + i] * y[off + i + 1];
        dy[off + i] = on - off_rate;
        bound += on;
    }
    float c_0 = y[off + 6];
    float c_1 = (((y[off + 5] - y[off + 2]) + p[19]) + ((c_0 + c_0) * (y[off + 3] / y[off + 7])));
    float c_2 = c_1;
    float c_3 = (((c_0 - c_2) / logf(1.0f + fabsf(y[off + 5]))) * c_0);
    float c_4 = (((p[85] - 6.6040f) * (p[57] + y[off + 9])) / ((y[off + 2] / p[87]) / (p[66] * c_1)));
    float c_5 = (powf((c_1 / y[off + 8]), p[24]) + sqrtf(1.0f + fabsf(p[39])));
    float c_6 = (((c_3 / y[off + 4]) - 4.0295f) + ((y[off + 9] / 5.2255f) - y[off + 6]));
    float c_7 = (((c_4 * p[75]) * p[94]) * y[off + 11]);
    float c_8 = c_3;
    float c_9 = powf(p[69], 4.1945f);
    float c_10 = powf(powf(p[38], c_1), c_9);
    float c_11 = powf((sqrtf(1.0f + fabsf(c_5)) * p[80]), p[84]);
    float c_12 = c_5;
    float c_13 = expf(-p[82] / p[32]);
    float c_14 = (((p[35] / p[25]) + (p[61] - p[49])) + (y[off + 8] - (p[79] * y[off + 6])));
    float c_15 = 8.7354f;
    float c_16 = (powf(expf(-c_6 / p[50]), c_3) - sqrtf(1.0f + fabsf((c_1 - y[off + 5]))));
    float c_17 = y[off + 10];
    float c_18 = c_7;
    float c_19 = (y[off + 1] / c_6);
    float c_20 = (((c_17 * c_14) * (y[off + 4] * 0.5935f)) * c_15);
    float c_21 = ((sqrtf(1.0f + fabsf(c_20)) / (y[off + 10] / p[64])) * ((c_19 / y[off + 1]) / y[off + 1]));
    float c_22 = p[13];
    float c_23 = p[33];
    float c_24 = c_5;
    float c_25 = ((c_15 * c_19) + ((y[off + 10] * c_11) - p[6]));
    float c_26 = ((c_10 * y[off + 8]) + (sqrtf(1.0f + fabsf(y[off + 0])) / (c_7 / y[off + 3])));
    float c_27 = (c_20 * y[off + 11]);
    float c_28 = sqrtf(1.0f + fabsf(logf(1.0f + fabsf(p[32]))));
    float c_29 = (((c_13 * c_28) * y[off + 10]) * ((9.1393f / y[off + 6]) + (y[off + 0] / y[off + 6])));
    float c_30 = powf(y[off + 10], c_8);
    float c_31 = (y[off + 4] * powf((6.2112f - y[off + 3]), y[off + 4]));
    float c_32 = sqrtf(1.0f + fabsf(c_17));
    float c_33 = (p[25] - logf(1.0f + fabsf(c_24)));
    float c_34 = ((sqrtf(1.0f + fabsf(p[28])) + sqrtf(1.0f + fabsf(c_21))) - (y[off + 6] - (p[55] * c_32)));
    float c_35 = (expf(-(c_22 * y[off + 2]) / p[81]) * logf(1.0f + fabsf((p[11] / c_27))));
    float c_36 = logf(1.0f + fabsf(c_13));
    float c_37 = 6.2058f;
    float c_38 = (powf((c_25 * c_32), c_24) * c_15);
    float c_39 = logf(1.0f + fabsf(expf(-c_30 / p[44])));
    float c_40 = (p[86] * ((p[71] + y[off + 1]) - p[47]));
    float c_41 = powf((c_25 + 8.6379f), c_18);
    float c_42 = (((c_39 + y[off + 9]) + logf(1.0f + fabsf(p[58]))) + ((p[6] * c_18) / (y[off + 11] * y[off + 9])));
    float c_43 = (((y[off + 1] - y[off + 5]) * (c_28 + y[off + 5])) - (c_33 * (p[93] * y[off + 5])));
    float c_44 = c_31;
    float c_45 = p[50];
    float c_46 = c_24;
    float c_47 = (p[47] + ((c_39 * c_42) / (y[off + 11] - p[86])));
    float c_48 = (((c_40 * c_35) * (y[off + 8] + y[off + 3])) / ((y[off + 8] * c_45) * (y[off + 4] - y[off + 11])));
    float c_49 = y[off + 4];
    float c_50 = (((7.6187f - p[39]) * (c_45 / y[off + 2])) * (c_30 * (y[off + 3] * y[off + 8])));
    float c_51 = (p[49] * ((c_32 * p[23]) + 0.1618f));
    float c_52 = sqrtf(1.0f + fabsf(c_40));
    float c_53 = expf(-((c_31 / c_40) * 1.1665f) / p[94]);
    float c_54 = (((c_49 - c_34) - c_46) * (c_32 / (p[44] * y[off + 4])));
    float c_55 = (((c_35 / y[off + 7]) * (y[off + 6] / c_42)) * ((c_40 / y[off + 8]) - (p[90] + c_35)));
    float c_56 = (powf(1.4693f, y[off + 6]) - (c_45 / y[off + 4]));
    float c_57 = expf(-((p[80] / y[off + 0]) * (c_44 * 3.8898f)) / p[35]);
    float c_58 = (y[off + 2] * (c_57 + (y[off + 0] * c_49)));
    float c_59 = expf(-expf(-(c_47 - c_56) / p[26]) / p[72]);
    float c_60 = ((p[86] * c_36) - p[78]);
    float c_61 = p[35];
    float c_62 = c_47;
    float c_63 = c_62;
    float c_64 = y[off + 9];
    float c_65 = ((c_46 + (c_48 / c_44)) / (c_59 * (c_63 * p[34])));
    float c_66 = (4.0356f + ((4.6010f - p[56]) + (c_50 - c_65)));
    float c_67 = c_45;
    float c_68 = c_66;
    float c_69 = logf(1.0f + fabsf(c_45));
    float c_70 = sqrtf(1.0f + fabsf(c_52));
    float c_71 = c_63;
    float c_72 = (7.8270f + ((p[95] * c_61) - (c_50 * p[37])));
    float c_73 = (0.7516f + powf((c_51 + c_52), c_63));
    float c_74 = ((c_53 / c_67) + ((c_65 + c_54) + (c_55 - c_52)));
    float c_75 = p[70];
    float c_76 = powf((y[off + 7] * y[off + 0]), p[57]);
    float c_77 = sqrtf(1.0f + fabsf(c_64));
    float c_78 = (y[off + 4] * expf(-(c_64 * c_76) / p[35]));
    float c_79 = sqrtf(1.0f + fabsf(((c_65 - c_67) - (c_64 * c_68))));
    dy[off + 8] = c_45 - c_37 * y[off + 8];
    dy[off + 9] = c_24 - c_79 * y[off + 9];
    dy[off + 10] = c_70 - c_50 * y[off + 10];
    dy[off + 11] = c_61 - c_12 * y[off + 11];
    return bound;
}

__device__ void fin(const float *y, float *dy, const float *p, int off, float j1, float j2) {
    for (int i = 0; i < 16; i++) {
        dy[off + i] = dy[off + i] + p[i] * j1 - p[16 + i] * j2 * y[off + i];
    }
}

__device__ void rhs(float t, const float *y, float *dy, const float *p, int off) {
    ecc(t, y, dy, p, off);
    float j1 = cam(y, dy, p, off + 16, 0, y[off + 1]);
    float j2 = cam(y, dy, p, off + 26, 1, y[off + 2]);
    float j3 = cam(y, dy, p, off + 36, 2, y[off + 3]);
    fin(y, dy, p, off, j1 + j3, j2);
}

// One cell per thread: y holds NEQ states per cell, k NSTAGE stages of NEQ derivatives,
// ytmp a stage's input.
__global__ void ode_solver(float *y, float *ytmp, float *k, const float *p, const float *tab, float h) {
    int cell = blockIdx.x * blockDim.x + threadIdx.x;
    int off = cell * NEQ;
    int koff = cell * NSTAGE * NEQ;
    float t = 0.0f;
    for (int step = 0; step < 2; step++) {
        for (int s = 0; s < NSTAGE; s++) {
            for (int i = 0; i < NEQ; i++) {
                float acc = y[off + i];
                for (int j = 0; j < s; j++)
                    acc += h * tab[s * NSTAGE + j] * k[koff + j * NEQ + i];
                ytmp[off + i] = acc;
            }
            rhs(t + tab[NSTAGE * NSTAGE + s] * h, ytmp + off, k + koff + s * NEQ, p, 0);
        }
        for (int i = 0; i < NEQ; i++) {
            float acc = y[off + i];
            for (int s = 0; s < NSTAGE; s++)
                acc += h * tab[NSTAGE * (NSTAGE + 1) + s] * k[koff + s * NEQ + i];
            y[off + i] = acc;
        }
        t += h;
    }
}

// A kernel that fits: analysed after the one above stopped at the bound, from what is
// resident then.
__global__ void scale(float *y, float h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = y[i] * h;
}
