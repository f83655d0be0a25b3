"use client";

import { Text } from "recharts";

interface TickProps {
  payload: { value: unknown };
  index: number;
  tickFormatter?: (value: unknown, index: number) => string;
  width?: unknown;
  [prop: string]: unknown;
}

/**
 * An axis tick label on one line. recharts wraps a label at spaces when it is wider than the
 * axis ("60000" over "ms"); without a width its Text never breaks.
 */
export function OneLineTick({ payload, index, tickFormatter, width: _width, visibleTicksCount: _count, padding: _padding, ...text }: TickProps) {
  const label = tickFormatter ? tickFormatter(payload.value, index) : String(payload.value);
  return <Text {...(text as object)}>{label}</Text>;
}
