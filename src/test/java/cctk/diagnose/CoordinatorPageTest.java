package cctk.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page rank 0 writes beside a diagnosis record: a record it cannot read gives one line, and the verdict stands. */
class CoordinatorPageTest {

    @TempDir
    Path dir;

    @Test
    void aRecordThatCannotBeShownGivesOneLineAndNoPage() throws Exception {
        final Path json = Files.writeString(dir.resolve("diagnose_20260102-030405.json"), "{\"kind\": \"other\"}");
        final String line = Coordinator.page(json);
        assertThat(line).startsWith("cctk diagnose: no page was written in " + dir.resolve("diagnose_20260102-030405"))
                .contains("not a cctk diagnosis record", "the verdict stands",
                        "'cctk report " + json + "' makes the page").doesNotContain("Exception").doesNotContain("\n");
        assertThat(dir.resolve("diagnose_20260102-030405/diagnosis.html")).doesNotExist();
    }
}
