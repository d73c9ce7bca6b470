/** The seeds' teaching demos (hello, broadcast, all-reduce, all-to-all) on cctk's own ranks and backends. */
package cctk.demo;
