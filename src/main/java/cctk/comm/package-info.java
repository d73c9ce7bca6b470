/** The backend-neutral communicator: buffers, element types, reduce operators, the bootstrap store. */
package cctk.comm;
