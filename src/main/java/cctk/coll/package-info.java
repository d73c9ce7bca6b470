/** One small class per collective: byte counts, verifiable inputs, expected results, bus-bandwidth factor. */
package cctk.coll;
