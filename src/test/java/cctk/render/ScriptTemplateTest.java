package cctk.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ScriptTemplateTest {

    private static ShellText t(final String s) {
        return ShellQuote.passThrough(s);
    }

    @Test
    void fillsPlaceholdersAndDropsLinesOfEmptyBlocks() {
        final ScriptTemplate tpl = ScriptTemplate.of("t", "a {{X}} b\n{{EMPTY}}\n{{BLOCK}}\nend {{X}}\n");
        assertThat(tpl.fill(Map.of("X", t("1"), "EMPTY", t(""), "BLOCK", t("l1\nl2"))))
                .isEqualTo("a 1 b\nl1\nl2\nend 1\n");
    }

    @Test
    void aMissingValueIsAnError() {
        assertThatThrownBy(() -> ScriptTemplate.of("t", "{{X}} {{Y}}").fill(Map.of("X", t("1"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("{{Y}}");
    }

    @Test
    void aValueWithoutPlaceholderIsAnError() {
        assertThatThrownBy(() -> ScriptTemplate.of("t", "{{X}}").fill(Map.of("X", t("1"), "Z", t("2"))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Z");
    }

    @Test
    void placeholderSyntaxInsideValuesIsNotExpandedAgain() {
        assertThat(ScriptTemplate.of("t", "{{X}}").fill(Map.of("X", t("{{X}}")))).isEqualTo("{{X}}");
    }

    @Test
    void theJobTemplateLoadsFromTheClasspath() {
        assertThatThrownBy(() -> ScriptTemplate.load("job.sbatch.tpl").fill(Map.of()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("needs a value");
    }
}
