/*
 * isa.h — the ISA extensions storebench knows: the bits a kernel needs (kernels.def's isa column)
 * and cpu_detect() reports.  Plain C, constants only, so the kernels and the CPU detection share
 * them without either including the other.
 */
#ifndef STOREBENCH_ISA_H
#define STOREBENCH_ISA_H

/* ISA bits a kernel needs; cpu_detect() reports the ones this CPU and OS can run. */
enum isa_bit {
	ISA_SSE2       = 1u << 0,
	ISA_AVX2       = 1u << 1, /* CPUID AVX2 and XCR0 saves XMM+YMM */
	ISA_AVX512F    = 1u << 2, /* CPUID AVX512F and XCR0 saves opmask+ZMM */
	ISA_CLFLUSHOPT = 1u << 3,
	ISA_CLWB       = 1u << 4,
	ISA_CLZERO     = 1u << 5, /* AMD: CPUID 0x80000008 EBX[0] */
	ISA_MOVDIR64B  = 1u << 6, /* Intel: CPUID 7.0 ECX[28] */
	/* The x86-64 micro-architecture levels of the psABI, each every feature the compiler may
	 * use under -march=x86-64-v<n> (the cc_ rows are built so): */
	ISA_X86_64_V2  = 1u << 7, /* cx16 lahf popcnt sse3 sse4.1 sse4.2 ssse3 */
	ISA_X86_64_V3  = 1u << 8, /* v2 + avx avx2 bmi1 bmi2 f16c fma lzcnt movbe, XCR0 saves YMM */
	ISA_X86_64_V4  = 1u << 9, /* v3 + avx512f/bw/cd/dq/vl, XCR0 saves opmask+ZMM */
};

#endif
