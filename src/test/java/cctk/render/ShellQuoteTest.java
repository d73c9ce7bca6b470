package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import cctk.CctkException;
import cctk.ExitCode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class ShellQuoteTest {

    static final List<String> HOSTILE = List.of("", "plain", "two words", "it's", "'", "''", "\"", "\\",
            "$(touch pwned)", "`touch pwned`", "'; rm -rf / #", "${HOME}", "$HOME", "a*b?[c]", "~root", "!!",
            "line1\nline2", "tab\there", "größe → 🚀", "-n", "--flag=x y", "a;b|c&d>e<f", "#comment");

    @TempDir
    Path tmp;

    @Test
    void safeWordsStayBareAndOthersAreSingleQuoted() {
        assertThat(ShellQuote.quote("k", "--exclusive").text()).isEqualTo("--exclusive");
        assertThat(ShellQuote.quote("k", "/a/b_c-1.2:3,4@5%6+7=8").text()).isEqualTo("/a/b_c-1.2:3,4@5%6+7=8");
        assertThat(ShellQuote.quote("k", "").text()).isEqualTo("''");
        assertThat(ShellQuote.quote("k", "a b").text()).isEqualTo("'a b'");
        assertThat(ShellQuote.quote("k", "it's").text()).isEqualTo("'it'\\''s'");
        assertThat(ShellQuote.quote("k", "~x").text()).isEqualTo("'~x'");
    }

    @Test
    void bashReadsEveryQuotedValueBackAsOneIntactArgument() throws Exception {
        final StringBuilder script = new StringBuilder("printf '%s\\0'");
        for (final String v : HOSTILE) {
            script.append(' ').append(ShellQuote.quote("k", v).text());
        }
        script.append('\n');
        final Path file = tmp.resolve("echo.sh");
        Files.writeString(file, script.toString(), StandardCharsets.UTF_8);
        final Path out = tmp.resolve("args");
        final Bash.Result r = Bash.run(List.of("bash", "-c", "bash \"$1\" > \"$2\"", "_", file.toString(),
                out.toString()), tmp, Map.of("LC_ALL", "C.UTF-8"));
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Bash.nulSeparated(out)).containsExactlyElementsOf(HOSTILE);
        assertThat(tmp.resolve("pwned")).doesNotExist();
    }

    @Test
    void nulIsRejectedNamingTheKey() {
        assertThatThrownBy(() -> ShellQuote.quote("env.FOO", "a\0b"))
                .isInstanceOf(CctkException.class).hasMessageContaining("'env.FOO'").hasMessageContaining("NUL")
                .extracting(e -> ((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void directiveValuesRejectControlCharactersAndBackslashes() {
        final List<String> bad = new ArrayList<>(List.of("a\nb", "a\rb", "a\tb", "a\0b", "a\u0085b", "a\u007fb",
                "a\\b"));
        for (final String v : bad) {
            assertThatThrownBy(() -> ShellQuote.quoteDirective("cluster.partition", v))
                    .as(v).isInstanceOf(CctkException.class).hasMessageContaining("'cluster.partition'")
                    .extracting(e -> ((CctkException) e).exitCode()).isEqualTo(ExitCode.USAGE);
        }
        assertThat(ShellQuote.quoteDirective("k", "gpu&hbm80g").text()).isEqualTo("'gpu&hbm80g'");
        assertThat(ShellQuote.quoteDirective("k", "größe 's").text()).isEqualTo("'größe '\\''s'");
    }

    @Test
    void passThroughKeepsCctkTextAsItIs() {
        assertThat(ShellQuote.passThrough("echo \"$x\"").text()).isEqualTo("echo \"$x\"");
    }
}
