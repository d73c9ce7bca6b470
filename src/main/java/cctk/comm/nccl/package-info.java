/**
 * The nccl backend: collectives on GPU buffers through NCCL, reached through JavaCPP's CUDA preset. Every
 * JavaCPP and CUDA specific lives here; nothing outside this package touches {@code org.bytedeco}, so the
 * native libraries load only when a run selects this backend ({@link cctk.comm.nccl.NcclLibraries}).
 */
package cctk.comm.nccl;
