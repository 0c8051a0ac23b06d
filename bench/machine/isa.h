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
};

#endif
