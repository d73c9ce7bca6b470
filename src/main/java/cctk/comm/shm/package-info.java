/**
 * The shared-memory backend: ranks of one host run every collective through segments in /dev/shm that all of them
 * map, reading each other's buffers where they lie.
 */
package cctk.comm.shm;
