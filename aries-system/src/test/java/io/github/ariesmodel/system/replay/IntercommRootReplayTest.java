package io.github.ariesmodel.system.replay;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.common.primitives.ImmutableLongArray;
import io.github.ariesmodel.system.AriesSystem;
import io.github.ariesmodel.traces.CallKind;
import io.github.ariesmodel.traces.CallTiming;
import io.github.ariesmodel.traces.TraceCall;
import io.github.ariesmodel.traces.TraceCall.Lifecycle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A collective whose root is an intercommunicator's MPI_ROOT or MPI_PROC_NULL (as the DUMPI reader reads them since
 * stop 78) is refused naming them, not as a root "-3 outside the communicator's ranks", the model's own code.
 */
class IntercommRootReplayTest {

  private static List<List<TraceCall>> bcastWithRoot(int root) {
    List<List<TraceCall>> t = new ArrayList<>();
    for (int me = 0; me < 2; me++) {
      List<TraceCall> c = new ArrayList<>();
      c.add(new Lifecycle(CallKind.INIT, CallTiming.NONE));
      c.add(new TraceCall.Collective(CallKind.BCAST, TraceCall.COMM_WORLD, root, 8, 8, ImmutableLongArray.of(), ImmutableLongArray.of(), 0,
          CallTiming.NONE));
      c.add(new Lifecycle(CallKind.FINALIZE, CallTiming.NONE));
      t.add(c);
    }
    return t;
  }

  private static void replay(List<List<TraceCall>> calls) {
    AriesSystem system = AriesSystem.builder().system("default").seed(3).build();
    TraceReplay.builder(system, SyntheticTrace.of(calls)).compute(ComputeMode.SKIP).build().run();
  }

  @Test
  void anIntercommunicatorsRootIsNamedAsMpiRootOrProcNull() {
    assertThatThrownBy(() -> replay(bcastWithRoot(TraceCall.ROOT))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("root is MPI_ROOT").hasMessageContaining("intercommunicators are not replayed")
        .hasMessageNotContaining("-3");
    assertThatThrownBy(() -> replay(bcastWithRoot(TraceCall.PROC_NULL))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("root is MPI_PROC_NULL");
    // an ordinary root out of range is still told as before
    assertThatThrownBy(() -> replay(bcastWithRoot(5))).isInstanceOf(TraceReplayException.class)
        .hasMessageContaining("root 5 is outside the communicator's ranks 0 to 1");
  }
}
