package cctk.comm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every method of {@link Communicator}, defaults included, is forwarded: a method added to the interface later and
 * not forwarded would silently run the interface's default (say "no transports") on a wrapped backend.
 */
class ForwardingCommunicatorTest {

    @Test
    void everyMethodOfTheInterfaceIsForwarded() {
        final List<String> missing = new ArrayList<>();
        for (final Method m : Communicator.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                ForwardingCommunicator.class.getDeclaredMethod(m.getName(), m.getParameterTypes());
            } catch (final NoSuchMethodException e) {
                missing.add(m.getName());
            }
        }
        assertThat(missing).as("methods of Communicator that ForwardingCommunicator does not forward").isEmpty();
    }
}
