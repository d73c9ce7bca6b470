package cctk.results;

import de.siegmar.fastcsv.writer.CsvWriter;
import de.siegmar.fastcsv.writer.LineDelimiter;
import de.siegmar.fastcsv.writer.QuoteStrategy;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one CSV encoder of cctk: every CSV file cctk writes (a run's CSV, a report's combined.csv, a diagnosis's
 * tables) goes through it. RFC 4180 through FastCSV (quoted commas, quotes and line breaks round-trip), and a cell
 * is data, never a formula: a text cell that a spreadsheet would evaluate, one starting with {@code =}, {@code +},
 * {@code -}, {@code @}, tab, CR or LF (or their full-width forms), gets a single quote in front and is quoted, as the
 * OWASP "CSV Injection" guidance recommends (https://owasp.org/www-community/attacks/CSV_Injection). A number
 * ({@code -1.5}, {@code -3}, {@code 1e-5}) stays a number. The prefix is reversible: a text cell that already starts
 * with quotes before such a character gets one more, and {@link #original} removes exactly one, so cctk's readers
 * read back the text that was written. <b>Note:</b> the static methods are threadsafe; an instance is not.
 */
public final class CsvOut implements Closeable, Flushable {

    /** A plain decimal number, as a spreadsheet reads one (never neutralised). */
    private static final Pattern NUMBER = Pattern.compile("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d{1,4})?");
    /** Characters that make a spreadsheet read a cell as a formula (or shift it), ASCII and full-width. */
    private static final String FORMULA_LEAD = "=+-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20";
    /** Quotes the cells {@link #cell} prefixed, so the prefix is inside the quotes, as the guidance shows. */
    private static final QuoteStrategy QUOTE_PREFIXED = new QuoteStrategy() {
        @Override
        public boolean quoteValue(final int line, final int field, final String value) {
            return value.startsWith("'");
        }
    };

    private final CsvWriter csv;

    private CsvOut(final CsvWriter csv) {
        this.csv = csv;
    }

    /** A CSV writer over {@code out}: LF line ends, quotes only where a cell needs them. */
    public static CsvOut over(final Writer out) {
        return new CsvOut(CsvWriter.builder().lineDelimiter(LineDelimiter.LF).quoteStrategy(QUOTE_PREFIXED)
            .build(out));
    }

    /** Writes one record, each cell through {@link #cell}. */
    public CsvOut writeRecord(final String... cells) {
        final String[] safe = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            safe[i] = cell(cells[i]);
        }
        csv.writeRecord(safe);
        return this;
    }

    /** Writes one record, each cell through {@link #cell}. */
    public CsvOut writeRecord(final List<String> cells) {
        return writeRecord(cells.toArray(new String[0]));
    }

    @Override
    public void flush() throws IOException {
        csv.flush();
    }

    @Override
    public void close() throws IOException {
        csv.close();
    }

    /** The cell as written: {@code value}, or {@code 'value} for text a spreadsheet would evaluate; null is "". */
    public static String cell(final String value) {
        if (value == null) {
            return "";
        }
        return formulaLike(value) ? "'" + value : value;
    }

    /** The text {@link #cell} was given for {@code cell} as read: one prefixing quote removed where it added one. */
    public static String original(final String cell) {
        return cell != null && cell.startsWith("'") && formulaLike(cell) ? cell.substring(1) : cell;
    }

    /** True for text whose first character after any leading quotes starts a formula, and that is no number. */
    private static boolean formulaLike(final String s) {
        int i = 0;
        while (i < s.length() && s.charAt(i) == '\'') {
            i++;
        }
        return i < s.length() && FORMULA_LEAD.indexOf(s.charAt(i)) >= 0 && !NUMBER.matcher(s).matches();
    }
}
