/** Job specs: the YAML files under configs/, parsed with line-accurate errors into immutable records. */
package cctk.spec;
