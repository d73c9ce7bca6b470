package cctk.results;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.IOException;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one CSV encoder: formula-led text neutralised and quoted, numbers kept, every cell read back as written. */
class CsvOutTest {

    private static final List<String> TEXT = List.of("=cmd|' /C calc'!A0", "+HYPERLINK(\"http://x\",\"go\")",
        "@SUM(1)", "-2+3+cmd", "\t=1+1", "\r=1+1", "\n=1", "\uFF1D1+1", "'=1", "''=1", "'", "''", "-", "+", "@",
        "-Infinity", "-NaN", "-0x10", "=", "'plain", "plain", "", "a=b", "-1.5.2");
    private static final List<String> NUMBERS = List.of("-1.5", "-3", "+1", "-1e-5", "1E+300", "-.5", "0", "12.");

    @Test
    void formulaLedTextGetsOneQuoteInFrontAndIsQuoted() throws IOException {
        for (final String t : TEXT) {
            final String cell = CsvOut.cell(t);
            final char lead = t.replaceFirst("^'+", "").isEmpty() ? 'x' : t.replaceFirst("^'+", "").charAt(0);
            final boolean formula = "=+-@\t\r\n\uFF1D".indexOf(lead) >= 0;
            assertThat(cell).as(t).isEqualTo(formula ? "'" + t : t);
            final StringWriter w = new StringWriter();
            try (CsvOut out = CsvOut.over(w)) {
                out.writeRecord("a", t, "b");
            }
            if (formula) {
                assertThat(w.toString()).as(t).startsWith("a,\"'");
            }
        }
    }

    @Test
    void numbersStayNumbers() throws IOException {
        for (final String n : NUMBERS) {
            assertThat(CsvOut.cell(n)).as(n).isEqualTo(n);
            final StringWriter w = new StringWriter();
            try (CsvOut out = CsvOut.over(w)) {
                out.writeRecord(n, n);
            }
            assertThat(w.toString()).isEqualTo(n + "," + n + "\n");
        }
    }

    @Test
    void everyCellReadsBackAsTheTextWritten() throws IOException {
        final StringWriter w = new StringWriter();
        try (CsvOut out = CsvOut.over(w)) {
            for (final String t : TEXT) {
                out.writeRecord(t, "x");
            }
            for (final String n : NUMBERS) {
                out.writeRecord(n, "x");
            }
        }
        try (CsvReader<CsvRecord> r = CsvReader.builder().ofCsvRecord(w.toString())) {
            final List<String> back = r.stream().map(rec -> CsvOut.original(rec.getField(0))).toList();
            assertThat(back.subList(0, TEXT.size())).containsExactlyElementsOf(TEXT);
            assertThat(back.subList(TEXT.size(), back.size())).containsExactlyElementsOf(NUMBERS);
        }
    }
}
