/**
 * The backend-neutral communicator: buffers, element types, reduce operators, the bootstrap store; and what the
 * CPU backends share: the frame of their collectives ({@link cctk.comm.HostCommunicator}) and their one host buffer
 * ({@link cctk.comm.HostBuffer}, a slice of a {@link cctk.comm.HostMemory}), which tcp, shm and hierarchical all
 * run on.
 */
package cctk.comm;
