import { h, type CSSProperties, type FunctionalComponent } from 'vue'
import { getBezierPath, type EdgeProps } from '@vue-flow/core'

type StepEdgeProps = Pick<EdgeProps, 'sourceX' | 'sourceY' | 'targetX' | 'targetY' | 'sourcePosition' | 'targetPosition' | 'markerEnd'> & { style?: CSSProperties }

/**
 * An edge of the canvas: its curve and a wider invisible path that takes the clicks. Vue Flow's
 * own bezier edge is two components deep and copies every edge prop (nodes, events, data…) onto
 * the path as DOM attributes; on a 200-step workflow that was a third of the time to draw it.
 */
const StepEdge: FunctionalComponent<StepEdgeProps> = (props) => {
  const [d] = getBezierPath(props)
  return [
    h('path', { 'class': 'vue-flow__edge-path', d, 'style': props.style, 'marker-end': props.markerEnd }),
    h('path', { 'class': 'vue-flow__edge-interaction', d, 'fill': 'none', 'stroke-opacity': 0, 'stroke-width': 20 }),
  ]
}
StepEdge.props = ['sourceX', 'sourceY', 'targetX', 'targetY', 'sourcePosition', 'targetPosition', 'markerEnd', 'style']
StepEdge.inheritAttrs = false

export default StepEdge
