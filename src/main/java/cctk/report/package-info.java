/** Everything cctk writes for people and tools: profile text, CSV, JSON; one number formatter. */
package cctk.report;
