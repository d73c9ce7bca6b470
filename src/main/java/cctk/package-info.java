/** cctk, the cluster collective toolkit: the exit codes and the one exception that carries them. */
package cctk;
