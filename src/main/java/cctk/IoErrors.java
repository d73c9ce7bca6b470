package cctk;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in words: Java's file exceptions often carry only the path as their message
 * ("cannot read spec x.yaml: x.yaml"), which says nothing. <b>Note:</b> stateless.
 */
public final class IoErrors {

    private IoErrors() {
    }

    /** "permission denied", "no such file or directory", the operating system's reason, or the message. */
    public static String reason(final IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied (check the file's owner and mode, and those of its directories)";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "a part of the path is not a directory";
        }
        if (e instanceof FileSystemException fse && fse.getReason() != null) {
            return fse.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
