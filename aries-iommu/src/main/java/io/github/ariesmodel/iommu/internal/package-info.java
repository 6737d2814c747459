/** Public only for technical reasons (benchmarks, reference tests): not part of the API. */
package io.github.ariesmodel.iommu.internal;
