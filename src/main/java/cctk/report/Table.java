package cctk.report;

import java.util.List;

/**
 * A table as Markdown and HTML both show it.
 *
 * @param title   heading above it
 * @param headers column names
 * @param numeric per column, true to align right
 * @param rows    cells, each row as long as the headers
 */
public record Table(String title, List<String> headers, List<Boolean> numeric, List<List<String>> rows) {
}
